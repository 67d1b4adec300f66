import type { ClusterState } from '../state/cluster-state.js';
import { makeEvent, makeRawEvent } from '../state/sim-event.js';
import type { DataNode } from '../state/node-state.js';
import type { Prng } from '../state/prng.js';

/** ArbitResult result codes (spec §6.7). */
const ARBIT = { winNodeCount: 42, winGroups: 43, loseGroups: 44, arbitratorSaysWin: 46 } as const;
/** NodeFailCompleted from DBDIH for each surviving node, before the final all-blocks report. */
const DBDIH = 246;
/** QMGR's phase of the failed node in NODE_FAILREP; the real value depends on QMGR internals (spec §12). */
export const FAILURE_STATE_RUNNING = 1;
const LCP_STATUS_IDLE = 0;

/**
 * What the cluster does when a data node leaves the heartbeat ring, gracefully or not (spec §8.3): each mgmd
 * reports the lost link, the survivors report the failure, the president arbitrates, and if the master left,
 * the new master takes over GCP and LCP. A node group left with no live node takes the whole cluster down.
 */
export function nodeLeft(cluster: ClusterState, node: DataNode, prng: Prng): void {
  const before = cluster.liveDataNodes();
  const wasMaster = cluster.master() === node;
  processGone(cluster, node);

  const survivors = cluster.liveDataNodes();
  const president = cluster.master();
  if (!president) return;
  for (const s of survivors) cluster.emit(makeEvent('NODE_FAILREP', s.id, { failed_node: node.id, failure_state: FAILURE_STATE_RUNNING }));

  const groupLost = new Set(survivors.map((s) => s.nodeGroup)).size < new Set(before.map((s) => s.nodeGroup)).size;
  const groupFullyAlive = [...new Set(survivors.map((s) => s.nodeGroup))].some((g) =>
    cluster.nodeGroupMembers(g).every((m) => survivors.includes(m)),
  );
  const code = groupLost
    ? ARBIT.loseGroups
    : groupFullyAlive
      ? ARBIT.winGroups
      : survivors.length * 2 > before.length
        ? ARBIT.winNodeCount
        : ARBIT.arbitratorSaysWin;
  cluster.emit(
    makeEvent('ArbitResult', president.id, {
      code,
      arbit_node: cluster.arbitrator(),
      ticket_0: Math.floor(prng() * 2 ** 32),
      ticket_1: Math.floor(prng() * 2 ** 32),
    }),
  );
  if (groupLost) {
    for (const s of survivors) crash(cluster, s);
    return;
  }

  failureHandled(cluster, president, node.id, survivors);
  if (wasMaster) {
    cluster.emit(
      makeRawEvent('GCP_TakeoverStarted', president.id, []),
      makeRawEvent('GCP_TakeoverCompleted', president.id, []),
      makeRawEvent('LCP_TakeoverStarted', president.id, []),
      makeEvent('LCP_TakeoverCompleted', president.id, { state: LCP_STATUS_IDLE }),
    );
  }
}

/** The node's process is gone: NO_CONTACT, and each management server reports the lost link. */
export function processGone(cluster: ClusterState, node: DataNode): void {
  cluster.setStatus(node, 'NO_CONTACT');
  cluster.emitFromEachMgmd((mgmd) => makeEvent('Disconnected', mgmd, { node: node.id }, mgmd));
}

/** The president reports each survivor's DBDIH done with the failed node, then the failure handled cluster-wide. */
export function failureHandled(cluster: ClusterState, president: DataNode, failedId: number, survivors: readonly DataNode[]): void {
  for (const s of survivors) {
    cluster.emit(makeEvent('NodeFailCompleted', president.id, { block: DBDIH, failed_node: failedId, completing_node: s.id }));
  }
  cluster.emit(makeEvent('NodeFailCompleted', president.id, { block: 0, failed_node: failedId, completing_node: 0 }));
}

/** ndbd exit code for "arbitrator shut down this node" style failures; used for forced stops. */
export const FORCED_STOP_ERROR = 2305;

/** A survivor that has to shut down because its cluster lost a whole node group. */
function crash(cluster: ClusterState, node: DataNode): void {
  node.generation += 1;
  cluster.emit(makeEvent('NDBStopForced', node.id, { action: 0, signum: 0, error: FORCED_STOP_ERROR, sphase: 0, extra: 0 }));
  processGone(cluster, node);
}
