import type { BackupView } from '../../../contract/schemas/snapshot.js';
import type { ClusterEvent } from '../../../../native-mgm/index.js';
import { BackupTracker } from '../backup-tracker.js';
import type { Room } from './room.js';
import type { ViewChanges } from './view-changes.js';

/** The latest backup, from the BACKUP events; a backup event changes no node's view but its reporter's. */
export class BackupRoom implements Room {
  private readonly backup = new BackupTracker();

  constructor(private readonly changes: ViewChanges) {}

  event(e: ClusterEvent): boolean {
    if (!this.backup.apply(e)) return false;
    this.changes.node(e.sourceNodeId);
    return true;
  }

  view(): BackupView | null {
    return this.backup.current && { ...this.backup.current };
  }
}
