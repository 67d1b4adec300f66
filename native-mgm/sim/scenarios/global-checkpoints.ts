import type { ClusterModel } from '../cluster-model.js';
import { makeEvent } from '../state/sim-event.js';
import type { DataNode } from '../state/node-state.js';

/** A first GCI of a cluster that has run a while (GCIs count up from the initial start, one per checkpoint). */
const FIRST_GCI = 180_000;
/** How often the master looks whether every node has flushed the checkpoint's redo. */
const CHECK_MS = 250;

export interface GcpTiming {
  /** TimeBetweenGlobalCheckpoints. */
  intervalMs: number;
  /** TimeBetweenGlobalCheckpointsTimeout: how long a checkpoint may lag before the master stops the laggards. */
  timeoutMs: number;
}

/**
 * The master's global checkpoints (DBDIH), one every TimeBetweenGlobalCheckpoints: GlobalCheckpointStarted, and
 * GlobalCheckpointCompleted once every live node has its redo up to it on disk (nothing waits in its redo buffer).
 * A node whose disk cannot keep up holds the checkpoint, and no new one starts: the two events stop. When one
 * lags past TimeBetweenGlobalCheckpointsTimeout the master kills the nodes that hold it (`gcpStop`), and the
 * checkpoint completes without them. Runs until the clock is disposed.
 */
export async function runGlobalCheckpoints(model: ClusterModel, timing: GcpTiming, gcpStop: (laggards: DataNode[]) => void): Promise<void> {
  const { clock } = model;
  for (let gci = FIRST_GCI; ; gci++) {
    await clock.sleep(timing.intervalMs);
    const master = model.master();
    if (!master) continue;
    model.emit(makeEvent('GlobalCheckpointStarted', master.id, { gci }));
    const startedAt = clock.now();
    for (;;) {
      await clock.sleep(CHECK_MS);
      model.activity.advanceTo(clock.now());
      const laggards = model.liveDataNodes().filter((n) => model.activity.redoLog(n.id).buffered > 0);
      if (laggards.length === 0) break;
      if (clock.now() - startedAt >= timing.timeoutMs) {
        gcpStop(laggards);
        break;
      }
    }
    const completing = model.master();
    if (completing) model.emit(makeEvent('GlobalCheckpointCompleted', completing.id, { gci }));
  }
}
