import { NodeStatusSchema, type NodeStatus, type NodeView } from '../../contract/schemas/node.js';
import { snake, type FamilyMaker, type FamilyRecorder } from './family.js';

/** A data node can be in any state but CONNECTED; API and MGM slots are only ever connected or not. */
const DATA_STATES = NodeStatusSchema.options.filter((s) => s !== 'CONNECTED');
const SLOT_STATES: readonly NodeStatus[] = ['CONNECTED', 'NO_CONTACT', 'UNKNOWN'];

function statesFor(node: NodeView): readonly NodeStatus[] {
  const states = node.type === 'NDB' ? DATA_STATES : SLOT_STATES;
  // Whatever the node reports is exported, even outside the expected set: the 1 must never go missing.
  return states.includes(node.status) ? states : [...states, node.status];
}

const nodeGroupLabel = (g: NodeView['nodeGroup']): string => (g === null ? '' : String(g));

/**
 * Per-node state: one-hot status (the kube-state-metrics way, so `== 0` alerts need no string matching), start
 * phase, memory in bytes, and an info series that carries the slow-changing facts for joins.
 */
export function nodeFamilies({ gauge }: FamilyMaker): FamilyRecorder {
  const status = gauge('ndbtop_node_status', 'Node status as ndb_mgm shows it, one series per status: 1 for the current one, 0 for the others', ['cluster', 'node_id', 'node_type', 'status']);
  const info = gauge('ndbtop_node_info', 'Always 1; carries the node type, node group and version as labels', ['cluster', 'node_id', 'node_type', 'node_group', 'version']);
  const since = gauge('ndbtop_node_status_changed_timestamp_seconds', 'When the node entered its current status (as first seen by ndbtop), Unix time', ['cluster', 'node_id']);
  const phase = gauge('ndbtop_node_start_phase', 'Data node start phase from get status (0 when not starting; the stop level while shutting down)', ['cluster', 'node_id']);
  const restart = gauge(
    'ndbtop_node_restart_state',
    "Data node: always 1; its one restart state from get status and ndbinfo restart_info joined (state started, stopping, down or restarting; the restart phase running; which source said it)",
    ['cluster', 'node_id', 'state', 'phase', 'source'],
  );
  const safeToStop = gauge('ndbtop_node_safe_to_stop', 'Data node: 1 when every other member of its node group is up, so stopping it would not take the group offline', ['cluster', 'node_id']);
  const used = gauge('ndbtop_node_memory_used_bytes', 'Data node memory in use (MemoryUsage report: pages used times page size); absent while the figures are stale', ['cluster', 'node_id', 'memory']);
  const total = gauge('ndbtop_node_memory_total_bytes', 'Data node memory configured (DataMemory, IndexMemory)', ['cluster', 'node_id', 'memory']);

  return ({ cluster, snapshot }) => {
    for (const node of snapshot.nodes) {
      const node_id = String(node.nodeId);
      const node_type = snake(node.type);
      for (const s of statesFor(node)) status.set({ cluster, node_id, node_type, status: snake(s) }, s === node.status ? 1 : 0);
      info.set({ cluster, node_id, node_type, node_group: nodeGroupLabel(node.nodeGroup), version: node.version ?? '' }, 1);
      since.set({ cluster, node_id }, node.statusSince / 1000);
      if (node.type !== 'NDB') continue;
      phase.set({ cluster, node_id }, node.startPhase);
      const r = node.restartState;
      if (r) restart.set({ cluster, node_id, state: r.state, phase: r.phase ?? '', source: r.source }, 1);
      if (node.safeToStop !== null) safeToStop.set({ cluster, node_id }, node.safeToStop ? 1 : 0);
      for (const [memory, use] of Object.entries(node.memory)) {
        if (!use) continue;
        // Figures the engine marks stale (node gone, or missing from the last refresh) are not a current gauge.
        if (!use.stale) used.set({ cluster, node_id, memory }, use.usedPages * use.pageSizeBytes);
        total.set({ cluster, node_id, memory }, use.totalPages * use.pageSizeBytes);
      }
    }
  };
}
