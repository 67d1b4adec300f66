import type { ClusterState } from '../state/cluster-state.js';
import { makeEvent, makeRawEvent } from '../state/sim-event.js';
import type { DataNode } from '../state/node-state.js';
import { claimNode, runTask, type NodeTask } from './task.js';
import { START_PHASES, START_TYPE, TIMINGS } from './timings.js';

/** StartReport type "waiting for other nodes" with its raw words (report type, seconds waited, node count). */
const START_REPORT_WAITING = 1;

/**
 * Starts data nodes that wait in NOT_STARTED (spec §8.2/§8.3): STARTING with phase 0 while memory is allocated,
 * admission to the ring (CM_REGCONF), then phases 1..8 and 101, each reported as completed, and finally STARTED.
 * Several nodes start together for an initial start or system restart; a node restart copies data in phase 5.
 * Resolves when every node is STARTED or was taken over by another lifecycle.
 */
export async function startDataNodes(cluster: ClusterState, nodes: readonly DataNode[], starttype: number): Promise<void> {
  const ordered = [...nodes].sort((a, b) => a.id - b.id);
  await Promise.all(ordered.map((node, i) => runTask(() => startOne(cluster, claimNode(cluster, node), node, starttype, i, ordered.length))));
}

async function startOne(
  cluster: ClusterState,
  task: NodeTask,
  node: DataNode,
  starttype: number,
  order: number,
  together: number,
): Promise<void> {
  const nodeRestart = starttype === START_TYPE.nodeRestart || starttype === START_TYPE.initialNodeRestart;
  // A node restarted with `initialstart` and `nostart` keeps the initial flag until its start order.
  if (starttype === START_TYPE.nodeRestart && node.initialPending) starttype = START_TYPE.initialNodeRestart;
  node.initialPending = false;
  cluster.setStatus(node, 'STARTING', 0);
  cluster.emit(makeEvent('NDBStartStarted', node.id, { version: node.version }));
  // Nodes of a system start register one after another, so the lowest id becomes master.
  await task.step(TIMINGS.memoryAllocation + order * 50);
  cluster.register(node);
  const president = cluster.master() ?? node;
  cluster.emit(makeEvent('CM_REGCONF', node.id, { own_id: node.id, president_id: president.id, dynamic_id: node.dynamicId }));
  for (const phase of START_PHASES) {
    if (phase === 1 && together > 1) cluster.emit(makeRawEvent('StartReport', node.id, [START_REPORT_WAITING, 0, together]));
    if (phase === 5 && nodeRestart) await copyData(cluster, task, node);
    await task.step(TIMINGS.phase);
    // A stalled start stays in its last phase, polling in sim time so a crash or release still takes it over.
    while ((cluster.stalledStarts.get(node.id) ?? Infinity) < phase) await task.step(TIMINGS.phase);
    cluster.setStatus(node, 'STARTING', phase);
    cluster.emit(makeEvent('StartPhaseCompleted', node.id, { phase, starttype }));
  }
  cluster.setStatus(node, 'STARTED', 0);
  cluster.emit(makeEvent('NDBStartCompleted', node.id, { version: node.version }));
}

async function copyData(cluster: ClusterState, task: NodeTask, node: DataNode): Promise<void> {
  cluster.emit(makeRawEvent('NR_CopyDict', node.id, []), makeRawEvent('NR_CopyDistr', node.id, []));
  cluster.emit(makeEvent('NR_CopyFragsStarted', node.id, { dest_node: node.id }));
  await task.step(TIMINGS.dataCopy);
  cluster.emit(makeEvent('NR_CopyFragsCompleted', node.id, { dest_node: node.id }));
}
