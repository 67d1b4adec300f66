import type { BackupView } from '../../contract/schemas/snapshot.js';
import type { ClusterEvent } from '../../../native-mgm/index.js';
import { join64 } from './join64.js';

/** The latest backup as the BACKUP events tell it. Returns whether the event changed it. */
export class BackupTracker {
  current: BackupView | null = null;

  apply(e: ClusterEvent): boolean {
    const f = e.fields;
    const at = e.receivedAt;
    const sameBackup = this.current !== null && this.current.backupId === f.backup_id;
    switch (e.name) {
      case 'BackupStarted':
        this.current = { backupId: f.backup_id ?? 0, status: 'running', startedAt: at, finishedAt: null, bytes: 0, records: 0, error: null };
        return true;
      case 'BackupStatus':
        this.current = {
          ...(sameBackup && this.current ? this.current : { backupId: f.backup_id ?? 0, status: 'running' as const, startedAt: at, finishedAt: null, error: null }),
          bytes: join64(f.n_bytes_hi, f.n_bytes_lo),
          records: join64(f.n_records_hi, f.n_records_lo),
        };
        return true;
      case 'BackupCompleted':
        this.current = {
          backupId: f.backup_id ?? 0,
          status: 'completed',
          startedAt: sameBackup && this.current ? this.current.startedAt : at,
          finishedAt: at,
          bytes: join64(f.n_bytes_hi, f.n_bytes),
          records: join64(f.n_records_hi, f.n_records),
          error: null,
        };
        return true;
      case 'BackupAborted':
      case 'BackupFailedToStart': {
        const base = sameBackup && this.current ? this.current : { backupId: f.backup_id ?? 0, startedAt: at, bytes: 0, records: 0 };
        const status = e.name === 'BackupAborted' ? 'aborted' : 'failed';
        this.current = { ...base, status, finishedAt: at, error: `error ${f.error ?? '?'}` };
        return true;
      }
      default:
        return false;
    }
  }
}
