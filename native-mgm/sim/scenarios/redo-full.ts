import { REDO_OVERLOAD_FILL } from '../activity/redo-log.js';
import type { ClusterModel } from '../cluster-model.js';
import { NDBD_EXIT } from '../lifecycle/exit-codes.js';
import { makeEvent } from '../state/sim-event.js';
import { constantProfile } from './benchmark-driver.js';
import { eachNonMasterInTurn, waitUntil, type Scenario } from './scenario.js';

export const REDO_FULL = {
  healthyMs: 30_000,
  /** A bulk ingest of 4 KiB rows (each a new row: a checkpoint writes every byte logged, as in redo-pressure). */
  rowBytes: 4096,
  /** Redo per node as a share of the fastest its checkpoints free the log: healthy nodes keep up with it. */
  ingestShare: 0.4,
  /** The slow node's disk takes its redo and this much more: what is left for its checkpoints is next to nothing. */
  slowDiskHeadroom: 1.05,
  /** A watcher asks every data node for its redo log parts (ALL DUMP 2399) this often. */
  redoStatusEveryMs: 30_000,
  downMs: 8_000,
} as const;

/** The fill at which the head has caught up with the tail: nothing more can be logged. */
const FULL = 1 - 1e-9;

function fillOf(model: ClusterModel, id: number): number {
  model.activity.advanceTo(model.clock.now());
  return model.activity.redoLog(id).fill;
}

/**
 * A bulk ingest every node keeps up with, until one node's checkpoints lose their disk to its redo writes: its log
 * fills at the write rate over its size (ndbinfo logspaces; RedoStatus on each ALL DUMP 2399), past overload the
 * master reports the checkpoint stuck (LCPStoppedInCalcKeepGci), and when head meets tail the node stops with 2354
 * ("Fatal error due to end of REDO log") and the angel restarts it. A real node at overload mostly refuses writes
 * (error 410) and stalls; the simulator's loader does not back off, so the log does run out (see the README).
 */
export const redoFull: Scenario = {
  name: 'redo-full',
  description: "bulk ingest; one data node's checkpoints fall behind, its redo log fills until head meets tail, it stops (2354) and restarts",
  requires: (model) => (model.data.size >= 2 ? null : 'the redo-full scenario needs at least 2 data nodes'),
  async run(ctx) {
    const { model, clock } = ctx;
    const c = REDO_FULL;
    model.activity.rowBytes = c.rowBytes;
    model.activity.lcpRewriteShare = 1;
    const freeing = Math.min(...[...model.data.keys()].map((id) => model.activity.redoLog(id).alertSpeed));
    const writes = (freeing * c.ingestShare * model.data.size) / model.replicas / c.rowBytes;
    model.setLoad(constantProfile('redo-full-ingest', { readsPerSec: writes / 10, writesPerSec: writes, transPerSec: writes / 10, scansPerSec: 0, rangeScansPerSec: 0 }));
    void (async () => {
      for (;;) {
        await clock.sleep(c.redoStatusEveryMs);
        for (const n of model.liveDataNodes()) model.reportRedoStatus(n.id);
      }
    })();
    await eachNonMasterInTurn(ctx, c.healthyMs, async (id) => {
      const redo = model.activity.redoLog(id);
      redo.diskBytesPerSec = freeing * c.ingestShare * c.slowDiskHeadroom;
      await waitUntil(clock, () => fillOf(model, id) >= REDO_OVERLOAD_FILL);
      const master = model.master();
      if (master) model.emit(makeEvent('LCPStoppedInCalcKeepGci', master.id, { data: 0 }));
      await waitUntil(clock, () => fillOf(model, id) >= FULL);
      model.reportRedoStatus(id);
      // The restart ends with a checkpoint of its own, on a disk that keeps up again.
      redo.diskBytesPerSec = Infinity;
      model.failNode(id, { autoRestart: true, downMs: c.downMs, error: NDBD_EXIT.noMoreRedoLog });
      redo.freeAfterRestart();
    });
  },
};
