import { AlertSchema } from '../../contract/schemas/events.js';
import { NodeGroupViewSchema } from '../../contract/schemas/node.js';
import { ConnectionViewSchema } from '../../contract/schemas/snapshot.js';
import { snake, type FamilyMaker, type FamilyRecorder } from './family.js';

const CONNECTION_STATES = ConnectionViewSchema.shape.status.options;
const HEALTH_STATES = NodeGroupViewSchema.shape.health.options;
const SEVERITIES = AlertSchema.shape.severity.options;

/** The link to the management server, node group health and ndbtop's own alerts, per watched cluster. */
export function clusterFamilies({ gauge, counter }: FamilyMaker): FamilyRecorder {
  const info = gauge('ndbtop_cluster_info', 'Always 1; carries how the cluster is watched (live, simulated, replay) and its connect string', ['cluster', 'cluster_id', 'mode', 'connectstring']);
  const connection = gauge('ndbtop_connection_state', 'Connection to the management server, one series per state: 1 for the current one', ['cluster', 'state']);
  const failovers = counter('ndbtop_connection_failovers_total', 'Moves to another management server since ndbtop started', ['cluster']);
  const eventStream = gauge('ndbtop_event_stream_up', '1 while the event (listen event) connection is live', ['cluster']);
  const polled = gauge('ndbtop_last_status_poll_timestamp_seconds', 'When get status last answered, Unix time', ['cluster']);
  const groupHealth = gauge('ndbtop_node_group_health', 'Node group health, one series per state: 1 for the current one', ['cluster', 'node_group', 'health']);
  const groupLive = gauge('ndbtop_node_group_live_nodes', 'Members of the node group that are up', ['cluster', 'node_group']);
  const groupSize = gauge('ndbtop_node_group_nodes', 'Members of the node group (its replicas)', ['cluster', 'node_group']);
  const active = gauge('ndbtop_alerts_active', 'ndbtop alerts whose condition is not over yet', ['cluster', 'severity']);
  const raised = counter('ndbtop_alerts_raised_total', 'ndbtop alerts raised since it started, by kind; arbitration and checkpoint alerts are events, so only this counter shows them', ['cluster', 'kind', 'severity']);

  return ({ cluster, snapshot: s, counters }) => {
    info.set({ cluster, cluster_id: s.clusterId, mode: s.connection.mode, connectstring: s.connection.connectstring }, 1);
    for (const state of CONNECTION_STATES) connection.set({ cluster, state: snake(state) }, state === s.connection.status ? 1 : 0);
    failovers.inc({ cluster }, s.connection.failovers);
    eventStream.set({ cluster }, s.connection.eventStream.status === 'live' ? 1 : 0);
    if (s.sampledAt !== null) polled.set({ cluster }, s.sampledAt / 1000);
    for (const g of s.nodeGroups) {
      const node_group = String(g.nodeGroup);
      for (const health of HEALTH_STATES) groupHealth.set({ cluster, node_group, health: snake(health) }, health === g.health ? 1 : 0);
      groupLive.set({ cluster, node_group }, g.live);
      groupSize.set({ cluster, node_group }, g.nodeIds.length);
    }
    const open = s.alerts.filter((a) => a.resolvedAt === null);
    for (const severity of SEVERITIES) active.set({ cluster, severity }, open.filter((a) => a.severity === severity).length);
    for (const a of counters.alerts) raised.inc({ cluster, kind: snake(a.kind), severity: a.severity }, a.raised);
  };
}
