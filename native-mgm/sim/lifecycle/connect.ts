import type { ClusterState } from '../state/cluster-state.js';
import { makeEvent } from '../state/sim-event.js';
import type { DataNode } from '../state/node-state.js';

/** The node's (re)started process connects to the management servers and waits for a start order. */
export function nodeConnected(cluster: ClusterState, node: DataNode): void {
  node.connectCount += 1;
  cluster.setStatus(node, 'NOT_STARTED');
  cluster.emitFromEachMgmd((mgmd) => makeEvent('Connected', mgmd, { node: node.id }, mgmd));
}
