import type { ClusterState } from '../state/cluster-state.js';
import { makeEvent } from '../state/sim-event.js';
import type { DataNode } from '../state/node-state.js';
import type { Prng } from '../state/prng.js';
import { nodeConnected } from './connect.js';
import { NDBD_EXIT } from './exit-codes.js';
import { nodeLeft } from './node-left.js';
import { startDataNodes } from './start.js';
import { claimNode, runTask, type NodeTask } from './task.js';
import { START_TYPE, STOP_ACTION, TIMINGS } from './timings.js';

export interface FailureOptions {
  /** The angel process restarts the node (StopOnError=false); otherwise it stays NO_CONTACT. */
  autoRestart?: boolean;
  /** Whether the dying node still manages to send NDBStopForced. */
  reportForced?: boolean;
  /** Sim ms the node stays NO_CONTACT before the angel has it connected again. */
  downMs?: number;
  /** The ndbd exit code NDBStopForced carries (default 6000, "OS signal received", with SIGABRT: a crash). */
  error?: number;
  /** The signal that ended the process, 0 for an exit on an error the node detected itself. */
  signum?: number;
}

const SIGABRT = 6;
/** NDBStopForced `sphase` of a node that was STARTED: the angel reports 255, which the cluster log leaves out. */
export const STARTED_SPHASE = 255;

/** NDBStopForced as the angel reports the exit: with the restart bit when it starts the node again (StopOnError=false). */
export function reportForcedStop(cluster: ClusterState, node: DataNode, options: FailureOptions): void {
  cluster.emit(
    makeEvent('NDBStopForced', node.id, {
      action: options.autoRestart ? STOP_ACTION.restart : 0,
      signum: options.signum ?? (options.error === undefined ? SIGABRT : 0),
      error: options.error ?? NDBD_EXIT.osSignal,
      sphase: node.status === 'STARTED' ? STARTED_SPHASE : node.startPhase,
      extra: 0,
    }),
  );
}

/**
 * A crash (spec §8.3 "Node failure"): STARTED → NO_CONTACT with no SHUTTING_DOWN, the survivors' failure
 * handling, and optionally the angel's restart through NOT_STARTED and the start phases. Resolves when the
 * node is down, not when it is back.
 */
export function failDataNode(cluster: ClusterState, node: DataNode, options: FailureOptions, prng: Prng): void {
  const task = claimNode(cluster, node);
  if (options.reportForced ?? true) reportForcedStop(cluster, node, options);
  nodeLeft(cluster, node, prng);
  if (options.autoRestart) angelRestart(cluster, [[node, task]], options.downMs ?? TIMINGS.angelRestart);
}

/**
 * The angels of nodes that went down have their processes connected again after `downMs` and start them together
 * (a node restart each). A node another lifecycle took over meanwhile is left to it.
 */
export function angelRestart(cluster: ClusterState, nodes: ReadonlyArray<readonly [DataNode, NodeTask]>, downMs: number): void {
  for (const [node, task] of nodes) {
    void runTask(async () => {
      await task.step(downMs);
      nodeConnected(cluster, node);
      await startDataNodes(cluster, [node], START_TYPE.nodeRestart);
    });
  }
}
