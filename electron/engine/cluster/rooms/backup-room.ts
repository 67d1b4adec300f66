import type { BackupStatus } from '../../../contract/schemas/backups.js';
import type { BackupView } from '../../../contract/schemas/snapshot.js';
import type { ClusterEvent } from '../../../../native-mgm/index.js';
import { BackupBook, pastRate, totals, type ToBackup } from '../../facts/backups/backup-book.js';
import { backupEta } from '../../facts/backups/backup-eta.js';
import type { AlertRoom } from './alerts/alert-room.js';
import type { Room } from './room.js';
import type { ViewChanges } from './view-changes.js';

/** A backup writing at under this share of the last completed one's rate is "much slower". */
export const SLOW_SHARE = 0.5;
const SLOW_KEY = 'backup-slow';
/** A rate judged over less writing than this says more about the start than about the disks. */
const JUDGE_AFTER_MS = 3000;

/** Is a backup running on this cluster, and since when (what a rolling restart checks before each step). */
export interface BackupRunning {
  backupId: number;
  since: number;
}

/**
 * The cluster's backups (`facts/backups/`): the running one and the past ones, and the `backup-slow` warning while
 * the running one writes at under half the rate of the last completed one. A backup event changes no node's view
 * but its reporter's.
 */
export class BackupRoom implements Room {
  private readonly book = new BackupBook();

  constructor(
    private readonly changes: ViewChanges,
    private readonly alerts: AlertRoom,
    private readonly toBackup: ToBackup,
  ) {}

  event(e: ClusterEvent): boolean {
    if (!this.book.apply(e)) return false;
    this.changes.node(e.sourceNodeId);
    return true;
  }

  settle(at: number): void {
    const run = this.book.running;
    // Every input settles (an idle cluster's ~230 reports a second): with no backup running there is nothing to judge.
    if (!run) {
      if (this.alerts.isActive(SLOW_KEY)) this.alerts.resolve(SLOW_KEY, at);
      return;
    }
    const lastDone = [...this.book.last].reverse().find((b) => b.outcome === 'completed');
    const before = lastDone ? pastRate(lastDone) : null;
    const rate = backupEta(run.nodes, this.toBackup, at).bytesPerSec;
    const judged = at - run.startedAt >= JUDGE_AFTER_MS;
    if (judged && before !== null && rate !== null && rate < before * SLOW_SHARE) {
      const message = `Backup ${run.backupId} writes ${mb(rate)}, under half of backup ${lastDone?.backupId ?? '?'}'s ${mb(before)}`;
      if (this.alerts.isActive(SLOW_KEY)) this.alerts.revise(SLOW_KEY, message);
      else this.alerts.raise(SLOW_KEY, 'backup-slow', 'warning', at, null, message);
    } else if (this.alerts.isActive(SLOW_KEY)) {
      this.alerts.resolve(SLOW_KEY, at);
    }
  }

  /** Null until a backup event was seen (older recordings replay to the snapshots they recorded). */
  backups(now: number): BackupStatus | null {
    return this.book.seen ? this.book.status(now, this.toBackup) : null;
  }

  running(): BackupRunning | null {
    const run = this.book.running;
    return run && { backupId: run.backupId, since: run.startedAt };
  }

  /** The header's line: the running backup, else the last one. */
  view(): BackupView | null {
    const run = this.book.running;
    if (run) {
      const { bytes, records } = totals(run);
      return { backupId: run.backupId, status: 'running', startedAt: run.startedAt, finishedAt: null, bytes, records, error: null };
    }
    const last = this.book.last.at(-1);
    if (!last) return null;
    const status = last.outcome ?? 'completed';
    return { backupId: last.backupId, status, startedAt: last.startedAt, finishedAt: last.endedAt, bytes: last.bytes, records: last.records, error: last.error !== undefined ? `error ${last.error}` : null };
  }
}

function mb(bytesPerSec: number): string {
  return `${(bytesPerSec / 1e6).toFixed(1)} MB/s`;
}
