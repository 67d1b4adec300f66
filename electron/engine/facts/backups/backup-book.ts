import type { BackupNodeProgress, BackupStatus, PastBackup } from '../../../contract/schemas/backups.js';
import type { ClusterEvent } from '../../../../native-mgm/index.js';
import { join64 } from '../../cluster/join64.js';
import { backupEta, type NodeProgress, type ToBackup } from './backup-eta.js';

export type { ToBackup } from './backup-eta.js';

/** Past backups kept: years of nightly ones (`ndbtop_backups_total` counts them). */
const PAST_KEPT = 1000;

export interface Running {
  backupId: number;
  startedAt: number;
  /** False when ndbtop joined a backup under way: `startedAt` is then when it first heard of it. */
  startSeen: boolean;
  coordinatorNodeId: number;
  nodes: Map<number, NodeProgress>;
}

/**
 * The cluster's backups from its BACKUP events (spec §6.6.9): BackupStarted and BackupCompleted/Aborted/
 * FailedToStart from the coordinator, BackupStatus from each data node with its own figures (`dump events` 62 or
 * BackupReportFrequency). The running one, with per-node progress, rate and ETA, and the past ones, oldest first.
 */
export class BackupBook {
  private current: Running | null = null;
  private readonly past: PastBackup[] = [];

  /** Whether the event was a backup event (it then changed what this book says). */
  apply(e: ClusterEvent): boolean {
    const f = e.fields;
    const at = e.receivedAt;
    switch (e.name) {
      case 'BackupStarted':
        this.current = { backupId: f['backup_id'] ?? 0, startedAt: at, startSeen: true, coordinatorNodeId: f['starting_node'] ?? e.sourceNodeId, nodes: new Map() };
        return true;
      case 'BackupStatus': {
        const run = this.runningFor(f['backup_id'] ?? 0, f['starting_node'] ?? e.sourceNodeId, at);
        const bytes = join64(f['n_bytes_hi'], f['n_bytes_lo']);
        const records = join64(f['n_records_hi'], f['n_records_lo']);
        const before = run.nodes.get(e.sourceNodeId);
        const from = before ?? (run.startSeen ? { fromAt: run.startedAt, fromBytes: 0 } : { fromAt: at, fromBytes: bytes });
        run.nodes.set(e.sourceNodeId, { records, bytes, at, fromAt: from.fromAt, fromBytes: from.fromBytes });
        return true;
      }
      case 'BackupCompleted':
        this.end(f['backup_id'] ?? 0, at, 'completed', join64(f['n_records_hi'], f['n_records']), join64(f['n_bytes_hi'], f['n_bytes']));
        return true;
      case 'BackupAborted':
      case 'BackupFailedToStart': {
        // BackupFailedToStart names no backup id (spec §6.6.9): it is the one starting, if any.
        const id = f['backup_id'] ?? this.current?.backupId ?? 0;
        const sums = this.current?.backupId === id ? totals(this.current) : { records: 0, bytes: 0 };
        this.end(id, at, e.name === 'BackupAborted' ? 'aborted' : 'failed', sums.records, sums.bytes, f['error']);
        return true;
      }
      default:
        return false;
    }
  }

  get running(): Running | null {
    return this.current;
  }

  /** Past backups, oldest first. */
  get last(): readonly PastBackup[] {
    return this.past;
  }

  /** Whether any backup was seen: the snapshot carries the status only then (older recordings replay as they were). */
  get seen(): boolean {
    return this.current !== null || this.past.length > 0;
  }

  /** The whole status at `now`: progress per node, the rate and the ETA from each node's data to back up. */
  status(now: number, toBackup: ToBackup): BackupStatus {
    const run = this.current;
    if (!run) return { running: null, last: [...this.past] };
    const nodes: BackupNodeProgress[] = [...run.nodes].map(([nodeId, p]) => ({ nodeId, records: p.records, bytes: p.bytes, toBackupBytes: toBackup(nodeId), at: p.at }));
    nodes.sort((a, b) => a.nodeId - b.nodeId);
    const eta = backupEta(run.nodes, toBackup, now);
    return {
      running: {
        backupId: run.backupId,
        startedAt: run.startedAt,
        at: now,
        coordinatorNodeId: run.coordinatorNodeId,
        nodes,
        bytesPerSec: eta.bytesPerSec,
        etaMs: eta.range?.toMs ?? null,
        etaRangeMs: eta.range,
        toBackupBytes: eta.toBackupBytes,
      },
      last: [...this.past],
    };
  }

  /** A report of a backup this book has not seen start (ndbtop joined it under way, or missed BackupStarted). */
  private runningFor(backupId: number, coordinatorNodeId: number, at: number): Running {
    if (this.current?.backupId !== backupId) this.current = { backupId, startedAt: at, startSeen: false, coordinatorNodeId, nodes: new Map() };
    return this.current;
  }

  private end(backupId: number, at: number, outcome: NonNullable<PastBackup['outcome']>, records: number, bytes: number, error?: number): void {
    const run = this.current?.backupId === backupId ? this.current : null;
    if (run) this.current = null;
    this.past.push({ backupId, startedAt: run?.startedAt ?? at, endedAt: at, records, bytes, outcome, ...(error !== undefined ? { error } : {}) });
    if (this.past.length > PAST_KEPT) this.past.shift();
  }
}

/** The running backup's records and bytes so far, over its nodes. */
export function totals(run: Running): { records: number; bytes: number } {
  let records = 0;
  let bytes = 0;
  for (const p of run.nodes.values()) {
    records += p.records;
    bytes += p.bytes;
  }
  return { records, bytes };
}

/** Bytes per second a past backup wrote, null when its duration is unknown. */
export function pastRate(b: PastBackup): number | null {
  const s = (b.endedAt - b.startedAt) / 1000;
  return s > 0 && b.bytes > 0 ? b.bytes / s : null;
}
