import type { NodeStatus } from '../../contract/schemas/node.js';

/**
 * A data node that serves data. SINGLE USER MODE nodes are up too: the server counts them as live when it
 * checks whether a stop would crash the cluster (5028).
 */
export function isUp(status: NodeStatus): boolean {
  return status === 'STARTED' || status === 'SINGLE USER MODE';
}

/** Statuses in which the management server has contact with the node: otherwise what we show of it is from before. */
export function isConnected(status: NodeStatus): boolean {
  return status !== 'NO_CONTACT' && status !== 'UNKNOWN';
}
