import type { ClusterState } from '../state/cluster-state.js';
import { TIMINGS } from '../lifecycle/timings.js';
import { MGM_ERROR } from './mgm-errors.js';
import { makeEvent, split64, type SimEvent } from '../state/sim-event.js';

/** Size of a simulated backup: over 4 GiB, so the 64-bit hi words are non-zero. */
const BACKUP_BYTES = 6_442_450_944;
const BACKUP_RECORDS = 48_000_000;
const LOG_BYTES = 3_145_728;
const LOG_RECORDS = 12_000;

export type BackupOutcome = { ok: true } | { ok: false; code: number };

export interface BackupHandle {
  id: number;
  /** Settles when BackupStarted went out (or the backup failed before). */
  started: Promise<BackupOutcome>;
  completed: Promise<BackupOutcome>;
}

interface Running {
  id: number;
  coordinator: number;
  startedAt: number;
  abort: () => void;
}

/**
 * Backups coordinated by the master (spec §4.12, §6.6.9): BackupStarted, a BackupStatus every couple of
 * seconds, then BackupCompleted, or BackupAborted on `abort backup`.
 */
export class BackupCoordinator {
  private lastId = 0;
  private readonly running = new Map<number, Running>();

  constructor(private readonly cluster: ClusterState) {}

  start(requestedId = 0): BackupHandle | { error: number } {
    const master = this.cluster.master();
    if (!master || master.status !== 'STARTED') return { error: MGM_ERROR.noContactWithDbNodes };
    const id = requestedId > 0 ? requestedId : this.lastId + 1;
    this.lastId = Math.max(this.lastId, id);
    const clock = this.cluster.clock;
    let markStarted: (o: BackupOutcome) => void = () => undefined;
    let finish: (o: BackupOutcome) => void = () => undefined;
    const started = new Promise<BackupOutcome>((resolve) => (markStarted = resolve));
    const completed = new Promise<BackupOutcome>((resolve) => (finish = resolve));
    const run: Running = { id, coordinator: master.id, startedAt: clock.now(), abort: () => undefined };
    this.running.set(id, run);

    const cancels: Array<() => void> = [];
    cancels.push(
      clock.after(100, () => {
        this.cluster.emit(makeEvent('BackupStarted', run.coordinator, { starting_node: run.coordinator, backup_id: id }));
        markStarted({ ok: true });
      }),
    );
    for (let t = TIMINGS.backupStatusEvery; t < TIMINGS.backupTotal; t += TIMINGS.backupStatusEvery) {
      cancels.push(clock.after(t, () => this.cluster.emit(this.status(run))));
    }
    cancels.push(
      clock.after(TIMINGS.backupTotal, () => {
        this.running.delete(id);
        this.cluster.emit(this.completedEvent(run));
        finish({ ok: true });
      }),
    );
    run.abort = () => {
      for (const cancel of cancels) cancel();
      this.running.delete(id);
      this.cluster.emit(makeEvent('BackupAborted', run.coordinator, { starting_node: run.coordinator, backup_id: id, error: MGM_ERROR.backupAborted }));
      markStarted({ ok: false, code: MGM_ERROR.backupAborted });
      finish({ ok: false, code: MGM_ERROR.backupAborted });
    };
    return { id, started, completed };
  }

  abort(id: number): void {
    this.running.get(id)?.abort();
  }

  /** BackupStatus of every running backup, for `dump events` type 62. */
  statusReports(): SimEvent[] {
    return [...this.running.values()].map((r) => this.status(r));
  }

  private progress(run: Running): number {
    return Math.min(1, (this.cluster.clock.now() - run.startedAt) / TIMINGS.backupTotal);
  }

  private status(run: Running): SimEvent {
    const f = this.progress(run);
    const bytes = split64(Math.round(BACKUP_BYTES * f));
    const records = split64(Math.round(BACKUP_RECORDS * f));
    const logBytes = split64(Math.round(LOG_BYTES * f));
    const logRecords = split64(Math.round(LOG_RECORDS * f));
    return makeEvent('BackupStatus', run.coordinator, {
      starting_node: run.coordinator,
      backup_id: run.id,
      n_bytes_lo: bytes.lo,
      n_bytes_hi: bytes.hi,
      n_records_lo: records.lo,
      n_records_hi: records.hi,
      n_log_bytes_lo: logBytes.lo,
      n_log_bytes_hi: logBytes.hi,
      n_log_records_lo: logRecords.lo,
      n_log_records_hi: logRecords.hi,
    });
  }

  private completedEvent(run: Running): SimEvent {
    const bytes = split64(BACKUP_BYTES);
    const records = split64(BACKUP_RECORDS);
    const logBytes = split64(LOG_BYTES);
    const logRecords = split64(LOG_RECORDS);
    const startGci = 1000 + run.id * 37;
    return makeEvent('BackupCompleted', run.coordinator, {
      starting_node: run.coordinator,
      backup_id: run.id,
      start_gci: startGci,
      stop_gci: startGci + 12,
      n_bytes: bytes.lo,
      n_records: records.lo,
      n_log_bytes: logBytes.lo,
      n_log_records: logRecords.lo,
      n_bytes_hi: bytes.hi,
      n_records_hi: records.hi,
      n_log_bytes_hi: logBytes.hi,
      n_log_records_hi: logRecords.hi,
    });
  }
}
