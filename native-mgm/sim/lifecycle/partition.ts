import type { ClusterState } from '../state/cluster-state.js';
import { makeEvent } from '../state/sim-event.js';
import type { DataNode } from '../state/node-state.js';
import type { Prng } from '../state/prng.js';
import { NDBD_EXIT } from './exit-codes.js';
import { angelRestart, reportForcedStop } from './failure.js';
import { heartbeatChecker, heartbeatsStop, type HeartbeatCheck } from './heartbeat.js';
import { FAILURE_STATE_RUNNING, failureHandled, processGone } from './node-left.js';
import { claimNode } from './task.js';

/** ArbitResult result codes (spec §6.7). */
const ARBIT = { partitioning: 45, winChoose: 46, loseChoose: 47 } as const;
/**
 * QMGR's arbitration state in the high 16 bits of `code` (Qmgr.hpp's ArbitState; the reference names the half, not
 * the numbers): ARBIT_CHOOSE, asking the arbitrator after a partition, is the state all three reports are made in.
 */
const ARBIT_CHOOSE = 7;
/** The arbitrator answers within a round trip; ArbitrationTimeout (7.5 s) bounds the wait, not the answer. */
const ARBITRATOR_REPLY_MS = 50;

export interface SplitOptions {
  /** HeartbeatIntervalDbDb of the data nodes. */
  heartbeatIntervalMs: number;
  /** Sim ms the losing side stays NO_CONTACT before its angels have it connected again. */
  downMs: number;
}

/**
 * The network between two halves of the cluster breaks; each half holds part of every node group (two sites with a
 * replica each). Across the split the heartbeats stop: each node whose ring neighbour is on the other side misses
 * them and declares it dead. Each half reports the other's nodes failed (NODE_FAILREP), and as each has exactly half
 * the nodes and a node of every group, its president finds a possible partitioning (45) and asks the arbitrator. The
 * arbitrator says win (46) to the half of the old president, which asked first, and lose (47) to the other, whose
 * nodes shut down (2305) and restart through their angels. Resolves when the losing half is down.
 */
export async function splitNetwork(cluster: ClusterState, halves: readonly [DataNode[], DataNode[]], options: SplitOptions, prng: Prng): Promise<void> {
  const master = cluster.master();
  const [winners, losers] = master && halves[1].includes(master) ? [halves[1], halves[0]] : halves;
  const sideOf = (n: DataNode): DataNode[] => (winners.includes(n) ? winners : losers);
  const checks: HeartbeatCheck[] = [];
  for (const silent of [...winners, ...losers]) {
    const checker = heartbeatChecker(cluster, silent);
    if (checker && sideOf(checker) !== sideOf(silent)) checks.push({ checker, silent });
  }
  await heartbeatsStop(cluster, checks, options.heartbeatIntervalMs);

  for (const [side, other] of [[winners, losers], [losers, winners]] as const) {
    for (const s of side) for (const f of other) cluster.emit(makeEvent('NODE_FAILREP', s.id, { failed_node: f.id, failure_state: FAILURE_STATE_RUNNING }));
  }
  const president = (side: DataNode[]): DataNode => [...side].sort((a, b) => a.dynamicId - b.dynamicId)[0]!;
  const [winner, loser] = [president(winners), president(losers)];
  // The ticket the president handed the arbitrator when it was chosen: both halves still hold the same one.
  const ticket = { arbit_node: cluster.arbitrator(), ticket_0: Math.floor(prng() * 2 ** 32), ticket_1: Math.floor(prng() * 2 ** 32) };
  const result = (node: DataNode, code: number): void => cluster.emit(makeEvent('ArbitResult', node.id, { code: code | (ARBIT_CHOOSE << 16), ...ticket }));
  result(winner, ARBIT.partitioning);
  result(loser, ARBIT.partitioning);
  await cluster.clock.sleep(ARBITRATOR_REPLY_MS);
  result(winner, ARBIT.winChoose);
  result(loser, ARBIT.loseChoose);

  const down = losers.map((node) => {
    const task = claimNode(cluster, node);
    reportForcedStop(cluster, node, { autoRestart: true, error: NDBD_EXIT.arbitShutdown });
    processGone(cluster, node);
    return [node, task] as const;
  });
  for (const [node] of down) failureHandled(cluster, winner, node.id, winners);
  angelRestart(cluster, down, options.downMs);
}
