import type { ClusterState } from '../state/cluster-state.js';
import { makeEvent } from '../state/sim-event.js';
import type { DataNode } from '../state/node-state.js';
import type { Prng } from '../state/prng.js';
import { nodeConnected } from './connect.js';
import { nodeLeft } from './node-left.js';
import { claimNode, runTask } from './task.js';
import { STOP_ACTION, TIMINGS } from './timings.js';

export interface StopOptions {
  /** Come back to NOT_STARTED afterwards (the mgmd then decides whether to send the start order). */
  restart: boolean;
  initial: boolean;
  /** Immediate stop: no graceful SHUTTING_DOWN levels. */
  abort: boolean;
  /** Part of a whole-cluster shutdown (`stop all`, `restart all`). */
  clusterStop: boolean;
}

const STOPTYPE_NODE = 0;
const STOPTYPE_CLUSTER = 1;

/**
 * Stops a data node the way `stop`/`restart` do (spec §8.3): STARTED → SHUTTING_DOWN levels 1..4 →
 * NO_CONTACT, and for a restart the new process connects again in NOT_STARTED. Resolves when the node got
 * there (or another lifecycle took it over).
 */
export function stopDataNode(cluster: ClusterState, node: DataNode, options: StopOptions, prng: Prng): Promise<void> {
  const task = claimNode(cluster, node);
  return runTask(async () => {
    cluster.emit(makeEvent('NDBStopStarted', node.id, { stoptype: options.clusterStop ? STOPTYPE_CLUSTER : STOPTYPE_NODE }));
    if (!options.abort) {
      for (let level = 1; level <= 4; level++) {
        cluster.setStatus(node, 'SHUTTING_DOWN', level);
        await task.step(TIMINGS.shutdownLevel);
      }
    }
    // The mgmd restarts the node in no-start mode and sends the start order itself once it is NOT_STARTED.
    const action = options.restart ? STOP_ACTION.restart | STOP_ACTION.noStart | (options.initial ? STOP_ACTION.initial : 0) : 0;
    cluster.emit(makeEvent('NDBStopCompleted', node.id, { action, signum: 0 }));
    nodeLeft(cluster, node, prng);
    if (!options.restart) return;
    node.initialPending = options.initial;
    await task.step(TIMINGS.processRestart);
    nodeConnected(cluster, node);
  });
}
