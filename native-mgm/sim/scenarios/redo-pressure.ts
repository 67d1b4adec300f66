import type { ClusterModel } from '../cluster-model.js';
import type { LoadRates } from '../workload/load-profile.js';
import { REDO_OVERLOAD_FILL } from '../activity/redo-log.js';
import { constantProfile } from './benchmark-driver.js';
import { allStarted, waitUntil, type Scenario } from './scenario.js';

export const REDO_PRESSURE = {
  /** A bulk ingest of 4 KiB rows (BLOB-like), in transactions of 10 rows. */
  rowBytes: 4096,
  /**
   * Redo each data node writes, as a multiple of the fastest its checkpoints free the log (MaxDiskWriteSpeed, doubled
   * in redo alert): a little more than they free, so each checkpoint is longer than the last and the log fills over
   * minutes (a 4 GiB log at the default 20 MB/s: 80 % after about 2 minutes, 90 % about 40 s later), as a real one
   * does. Every row is new, so a checkpoint writes every byte logged (`lcpRewriteShare` 1).
   */
  overCheckpoints: 1.2,
  /** What the loader keeps writing after it got "REDO log files overloaded" and backed off. */
  backoffShare: 0.02,
  /** Fill under which the loader goes back to full speed. */
  resumeFill: 0.2,
  pauseMs: 10_000,
} as const;

/** Redo bytes/s each data node writes during the ingest, for checkpoints that free at most `freeing` bytes/s. */
export function ingestRedoBytesPerSec(freeing: number): number {
  return REDO_PRESSURE.overCheckpoints * freeing;
}

/** Writes per data node and second of each replica: the redo its slowest checkpoints cannot keep up with. */
function replicaWritesPerNode(model: ClusterModel): number {
  const freeing = Math.min(...[...model.data.keys()].map((id) => model.activity.redoLog(id).alertSpeed));
  return ingestRedoBytesPerSec(freeing) / REDO_PRESSURE.rowBytes;
}

function ingest(model: ClusterModel, share: number): LoadRates {
  const writes = (replicaWritesPerNode(model) * model.data.size * share) / model.replicas;
  return { readsPerSec: writes / 10, writesPerSec: writes, transPerSec: writes / 10, scansPerSec: 0, rangeScansPerSec: 0 };
}

function fills(model: ClusterModel, clock: { now(): number }): number[] {
  model.activity.advanceTo(clock.now());
  return [...model.data.values()].filter((n) => n.status === 'STARTED').map((n) => model.activity.redoLog(n.id).fill);
}

/**
 * A bulk load that writes redo faster than local checkpoints free it: each checkpoint takes longer than the last,
 * the redo log fills until it is overloaded, the loader backs off (as an application does on error 410), the
 * checkpoints catch up and trim the log, and the loader starts again.
 */
export const redoPressure: Scenario = {
  name: 'redo-pressure',
  description: 'bulk ingest of 4 KiB rows: redo fills over minutes, faster than checkpoints free it, up to overload; the loader backs off until checkpoints trim it',
  async run({ model, clock }) {
    model.activity.rowBytes = REDO_PRESSURE.rowBytes;
    model.activity.lcpRewriteShare = 1;
    for (;;) {
      await waitUntil(clock, () => allStarted(model));
      model.setLoad(constantProfile('redo-pressure-ingest', ingest(model, 1)));
      await waitUntil(clock, () => fills(model, clock).some((f) => f >= REDO_OVERLOAD_FILL));
      model.setLoad(constantProfile('redo-pressure-backoff', ingest(model, REDO_PRESSURE.backoffShare)));
      await waitUntil(clock, () => fills(model, clock).every((f) => f < REDO_PRESSURE.resumeFill));
      await clock.sleep(REDO_PRESSURE.pauseMs);
    }
  },
};
