import type { ClusterState } from '../state/cluster-state.js';
import { makeEvent } from '../state/sim-event.js';
import type { DataNode } from '../state/node-state.js';

/** A node whose heartbeats stopped, and the node that checks them. */
export interface HeartbeatCheck {
  checker: DataNode;
  silent: DataNode;
}

/**
 * The node that checks `node`'s heartbeats: QMGR sends heartbeats to its right neighbour in the ring and checks its
 * left one, so the checker is the next live node by dynamic id (wrapping round). None when `node` is alone.
 */
export function heartbeatChecker(cluster: ClusterState, node: DataNode): DataNode | undefined {
  const ring = cluster.liveDataNodes().sort((a, b) => a.dynamicId - b.dynamicId);
  const i = ring.indexOf(node);
  if (i < 0 || ring.length < 2) return undefined;
  return ring[(i + 1) % ring.length];
}

/**
 * Heartbeats from each silent node stop now. QMGR's check runs once per HeartbeatIntervalDbDb and counts the
 * intervals without one: from the third it reports MissedHeartbeat with the count less one (2, 3, 4), and on the
 * fifth it declares the node dead (DeadDueToHeartbeat), five intervals after the last heartbeat (the manual's
 * "five times the heartbeat interval"). Resolves at the declaration; the failure handling is the caller's.
 */
export async function heartbeatsStop(cluster: ClusterState, checks: readonly HeartbeatCheck[], intervalMs: number): Promise<void> {
  await cluster.clock.sleep(2 * intervalMs);
  for (const count of [2, 3, 4]) {
    await cluster.clock.sleep(intervalMs);
    for (const { checker, silent } of checks) cluster.emit(makeEvent('MissedHeartbeat', checker.id, { node: silent.id, count }));
  }
  for (const { checker, silent } of checks) cluster.emit(makeEvent('DeadDueToHeartbeat', checker.id, { node: silent.id }));
}
