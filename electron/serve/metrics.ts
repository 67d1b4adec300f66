import { Gauge, Registry } from 'prom-client';
import type { EngineHandlers } from '../contract/api.js';
import { NodeStatusSchema, type Rates } from '../contract/node.js';
import { ConnectionViewSchema, type ClusterSnapshot } from '../contract/snapshot.js';

const RATE_KINDS = ['transactions', 'commits', 'reads', 'simpleReads', 'writes', 'scans', 'rangeScans', 'aborts', 'operations'] as const;
const CONNECTION_STATES = ConnectionViewSchema.shape.status.options;
const HEALTH_STATES = ['OK', 'DEGRADED', 'OFFLINE'] as const;

/**
 * Prometheus exposition of the engine's snapshots (prom-client, a registry of our own so nothing global leaks in).
 * States are gauges with one series per possible value, 1 for the current one (the kube-state-metrics way), so
 * `ndbtop_node_status{status="STARTED"} == 0` alerts work without string matching.
 */
export function createMetrics(handlers: EngineHandlers): { contentType: string; render(): Promise<string> } {
  const registry = new Registry();
  const gauge = (name: string, help: string, labelNames: string[]): Gauge => new Gauge({ name, help, labelNames, registers: [registry] });

  const nodeStatus = gauge('ndbtop_node_status', 'Node status as ndb_mgm shows it: 1 for the current status, 0 for the others', ['cluster', 'node_id', 'node_type', 'status']);
  const startPhase = gauge('ndbtop_node_start_phase', 'Start phase from get status (0 when not starting)', ['cluster', 'node_id']);
  const sampled = gauge('ndbtop_node_sampled_timestamp_seconds', 'When this node was last read from the management server', ['cluster', 'node_id']);
  const safeToStop = gauge('ndbtop_node_safe_to_stop', '1 when every other member of the node group is STARTED', ['cluster', 'node_id']);
  const memPercent = gauge('ndbtop_node_memory_used_percent', 'Data node memory in use, percent of configured', ['cluster', 'node_id', 'memory']);
  const memBytes = gauge('ndbtop_node_memory_used_bytes', 'Data node memory in use', ['cluster', 'node_id', 'memory']);
  const memTotal = gauge('ndbtop_node_memory_total_bytes', 'Data node memory configured', ['cluster', 'node_id', 'memory']);
  const nodeRate = gauge('ndbtop_node_throughput_per_second', 'Per-second rate over the last statistics window', ['cluster', 'node_id', 'kind']);
  const clusterRate = gauge('ndbtop_cluster_throughput_per_second', 'Cluster-wide per-second rate over the last statistics window', ['cluster', 'kind']);
  const rateAt = gauge('ndbtop_cluster_throughput_timestamp_seconds', 'End of the statistics window the cluster rates cover', ['cluster']);
  const connection = gauge('ndbtop_connection_state', 'Connection to the management server: 1 for the current state', ['cluster', 'mode', 'state']);
  const failovers = gauge('ndbtop_connection_failovers', 'Management server failovers since ndbtop started', ['cluster']);
  const eventStream = gauge('ndbtop_event_stream_up', '1 while the event connection is live', ['cluster']);
  const ngHealth = gauge('ndbtop_node_group_health', 'Node group health: 1 for the current state', ['cluster', 'node_group', 'health']);
  const ngLive = gauge('ndbtop_node_group_live_nodes', 'Members of the node group that are up', ['cluster', 'node_group']);
  const alerts = gauge('ndbtop_alerts_active', 'Alerts not resolved yet', ['cluster', 'severity']);

  const setRates = (rates: Rates, set: (kind: string, value: number) => void): void => {
    for (const kind of RATE_KINDS) set(kind, rates[kind]);
  };

  const record = (s: ClusterSnapshot): void => {
    const cluster = s.name;
    for (const node of s.nodes) {
      const id = String(node.nodeId);
      for (const status of NodeStatusSchema.options) {
        nodeStatus.set({ cluster, node_id: id, node_type: node.type, status }, status === node.status ? 1 : 0);
      }
      startPhase.set({ cluster, node_id: id }, node.startPhase);
      sampled.set({ cluster, node_id: id }, node.sampledAt / 1000);
      if (node.safeToStop !== null) safeToStop.set({ cluster, node_id: id }, node.safeToStop ? 1 : 0);
      for (const [memory, use] of Object.entries(node.memory)) {
        if (!use) continue;
        memPercent.set({ cluster, node_id: id, memory }, use.percent);
        memBytes.set({ cluster, node_id: id, memory }, use.usedPages * use.pageSizeBytes);
        memTotal.set({ cluster, node_id: id, memory }, use.totalPages * use.pageSizeBytes);
      }
      if (node.rates) setRates(node.rates, (kind, v) => nodeRate.set({ cluster, node_id: id, kind }, v));
    }
    if (s.rates) {
      setRates(s.rates, (kind, v) => clusterRate.set({ cluster, kind }, v));
      rateAt.set({ cluster }, s.rates.at / 1000);
    }
    for (const state of CONNECTION_STATES) connection.set({ cluster, mode: s.connection.mode, state }, state === s.connection.status ? 1 : 0);
    failovers.set({ cluster }, s.connection.failovers);
    eventStream.set({ cluster }, s.connection.eventStream.status === 'live' ? 1 : 0);
    for (const ng of s.nodeGroups) {
      const node_group = String(ng.nodeGroup);
      for (const health of HEALTH_STATES) ngHealth.set({ cluster, node_group, health }, health === ng.health ? 1 : 0);
      ngLive.set({ cluster, node_group }, ng.live);
    }
    const active = s.alerts.filter((a) => a.resolvedAt === null);
    for (const severity of ['warning', 'critical'] as const) alerts.set({ cluster, severity }, active.filter((a) => a.severity === severity).length);
  };

  // Scrapes are serialised: each one resets and refills the same gauges, so two must not interleave.
  let last: Promise<unknown> = Promise.resolve();
  const render = (): Promise<string> => {
    const run = last.then(async () => {
      const clusters = await handlers.listClusters({});
      const snapshots = await Promise.all(clusters.map((c) => handlers.getSnapshot({ clusterId: c.clusterId })));
      // Reset so nodes and clusters that went away stop being exported.
      registry.resetMetrics();
      for (const s of snapshots) record(s);
      return registry.metrics();
    });
    last = run.catch(() => undefined);
    return run;
  };

  return { contentType: registry.contentType, render };
}
