import { PastBackupSchema } from '../../contract/schemas/backups.js';
import type { FamilyMaker, FamilyRecorder } from './family.js';

const OUTCOMES = PastBackupSchema.shape.outcome.unwrap().options;

/**
 * Backups as the engine derived them (`snapshot.backups`): whether one runs, its progress per data node (its rate is
 * PromQL's `deriv()` of the bytes) and ETA, and how many ended each way since ndbtop started (or in the recording it plays).
 */
export function backupFamilies({ gauge, counter }: FamilyMaker): FamilyRecorder {
  const running = gauge('ndbtop_backup_running', '1 while a backup runs, else 0', ['cluster']);
  const id = gauge('ndbtop_backup_id', 'Id of the running backup (absent while none runs)', ['cluster']);
  const bytes = gauge('ndbtop_backup_bytes', 'Bytes of data the running backup wrote on each data node (its BackupStatus)', ['cluster', 'node_id']);
  const records = gauge('ndbtop_backup_records', 'Records the running backup wrote on each data node', ['cluster', 'node_id']);
  const eta = gauge('ndbtop_backup_eta_seconds', 'Seconds until the running backup ends at this rate for its data to back up (DataMemory in use ÷ replicas), the latest end', ['cluster']);
  const earliest = gauge('ndbtop_backup_eta_earliest_seconds', 'Seconds until the earliest end of the running backup (75 % of the data to back up)', ['cluster']);
  const total = counter('ndbtop_backups_total', 'Backups that ended, by outcome, since ndbtop started', ['cluster', 'outcome']);
  const lastBytes = gauge('ndbtop_backup_last_bytes', 'Bytes of data the last completed backup wrote', ['cluster']);
  const lastSeconds = gauge('ndbtop_backup_last_duration_seconds', 'How long the last completed backup took', ['cluster']);

  return ({ cluster, snapshot: s }) => {
    const b = s.backups ?? { running: null, last: [] };
    const run = b.running;
    running.set({ cluster }, run ? 1 : 0);
    if (run) {
      id.set({ cluster }, run.backupId);
      for (const n of run.nodes) {
        bytes.set({ cluster, node_id: String(n.nodeId) }, n.bytes);
        records.set({ cluster, node_id: String(n.nodeId) }, n.records);
      }
      if (run.etaRangeMs) {
        eta.set({ cluster }, run.etaRangeMs.toMs / 1000);
        earliest.set({ cluster }, run.etaRangeMs.fromMs / 1000);
      }
    }
    for (const outcome of OUTCOMES) total.inc({ cluster, outcome }, b.last.filter((p) => (p.outcome ?? 'completed') === outcome).length);
    const done = b.last.filter((p) => (p.outcome ?? 'completed') === 'completed').at(-1);
    if (done) {
      lastBytes.set({ cluster }, done.bytes);
      lastSeconds.set({ cluster }, (done.endedAt - done.startedAt) / 1000);
    }
  };
}
