import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterEvent } from '../../../../../native-mgm/index.js';
import { BackupBook } from '../backup-book.js';

function ev(name: string, source: number, at: number, fields: Record<string, number>): ClusterEvent {
  return { typeId: 0, name, category: 'BACKUP', severity: 'INFO', sourceNodeId: source, receivedAt: at, fields, data: null, known: true, raw: {} };
}

const status = (node: number, at: number, id: number, bytes: number, records = 0): ClusterEvent =>
  ev('BackupStatus', node, at, { starting_node: 2, backup_id: id, n_bytes_lo: bytes % 2 ** 32, n_bytes_hi: Math.floor(bytes / 2 ** 32), n_records_lo: records, n_records_hi: 0 });

/** 1 GB to back up on each of nodes 2 and 3. */
const GB = (): number => 1e9;

test('per node rates from the start, the ETA range of the slowest node, the 64-bit sums at the end', () => {
  const book = new BackupBook();
  book.apply(ev('BackupStarted', 2, 0, { starting_node: 2, backup_id: 7 }));
  book.apply(status(2, 10_000, 7, 200e6, 10));
  book.apply(status(3, 10_000, 7, 100e6, 5));
  const run = book.status(10_000, GB).running;
  assert.ok(run);
  assert.equal(run.bytesPerSec, 30e6);
  // Node 3 is the slowest: 10 MB/s, 900 MB (or, at 75 %, 650 MB) left.
  assert.deepEqual(run.etaRangeMs, { fromMs: 65_000, toMs: 90_000 });
  assert.equal(run.etaMs, 90_000);
  assert.equal(run.toBackupBytes, 2e9);
  assert.deepEqual(book.status(15_000, GB).running?.etaRangeMs, { fromMs: 60_000, toMs: 85_000 }, 'counted down from the readings');
  book.apply(ev('BackupCompleted', 2, 100_000, { starting_node: 2, backup_id: 7, n_bytes: 2 ** 31, n_bytes_hi: 1, n_records: 15, n_records_hi: 0 }));
  assert.deepEqual(book.status(100_000, GB), { running: null, last: [{ backupId: 7, startedAt: 0, endedAt: 100_000, records: 15, bytes: 2 ** 32 + 2 ** 31, outcome: 'completed' }] });
});

test('joined under way: no rate from one report, a rate from two; an abort keeps what was written', () => {
  const book = new BackupBook();
  book.apply(status(2, 5_000, 3, 500e6));
  assert.equal(book.status(5_000, GB).running?.bytesPerSec, null, 'the start is not known: one report gives no rate');
  assert.equal(book.status(5_000, GB).running?.etaRangeMs, null);
  book.apply(status(2, 6_000, 3, 520e6));
  assert.equal(book.status(6_000, GB).running?.bytesPerSec, 20e6);
  book.apply(ev('BackupAborted', 2, 7_000, { starting_node: 2, backup_id: 3, error: 1321 }));
  assert.deepEqual(book.last, [{ backupId: 3, startedAt: 5_000, endedAt: 7_000, records: 0, bytes: 520e6, outcome: 'aborted', error: 1321 }]);
});

test('BackupFailedToStart names no backup: it is the one starting', () => {
  const book = new BackupBook();
  book.apply(ev('BackupStarted', 2, 0, { starting_node: 2, backup_id: 9 }));
  book.apply(ev('BackupFailedToStart', 2, 50, { starting_node: 2, error: 1304 }));
  assert.equal(book.running, null);
  assert.deepEqual(book.last.map((b) => [b.backupId, b.outcome, b.error]), [[9, 'failed', 1304]]);
});
