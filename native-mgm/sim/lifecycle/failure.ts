import type { ClusterState } from '../state/cluster-state.js';
import { makeEvent } from '../state/sim-event.js';
import type { DataNode } from '../state/node-state.js';
import type { Prng } from '../state/prng.js';
import { nodeConnected } from './connect.js';
import { FORCED_STOP_ERROR, nodeLeft } from './node-left.js';
import { startDataNodes } from './start.js';
import { claimNode, runTask } from './task.js';
import { START_TYPE, TIMINGS } from './timings.js';

export interface FailureOptions {
  /** The angel process restarts the node (StopOnError=false); otherwise it stays NO_CONTACT. */
  autoRestart?: boolean;
  /** Whether the dying node still manages to send NDBStopForced. */
  reportForced?: boolean;
  /** Sim ms the node stays NO_CONTACT before the angel has it connected again. */
  downMs?: number;
}

const SIGABRT = 6;

/**
 * A crash (spec §8.3 "Node failure"): STARTED → NO_CONTACT with no SHUTTING_DOWN, the survivors' failure
 * handling, and optionally the angel's restart through NOT_STARTED and the start phases. Resolves when the
 * node is down, not when it is back.
 */
export function failDataNode(cluster: ClusterState, node: DataNode, options: FailureOptions, prng: Prng): void {
  const task = claimNode(cluster, node);
  if (options.reportForced ?? true) {
    cluster.emit(makeEvent('NDBStopForced', node.id, { action: 0, signum: SIGABRT, error: FORCED_STOP_ERROR, sphase: node.startPhase, extra: 0 }));
  }
  nodeLeft(cluster, node, prng);
  if (!options.autoRestart) return;
  void runTask(async () => {
    await task.step(options.downMs ?? TIMINGS.angelRestart);
    nodeConnected(cluster, node);
    await startDataNodes(cluster, [node], START_TYPE.nodeRestart);
  });
}
