import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backupHeadline, formatCount } from '../page-safe/backup-words.js';

const backup = { backupId: 7, status: 'running' as const, startedAt: 0, finishedAt: null, bytes: 3 * 2 ** 30, records: 10_977_646, error: null };

test('the header\'s backup line groups the records\' digits as the Backups view does', () => {
  assert.equal(formatCount(10_977_646), '10,977,646');
  assert.equal(backupHeadline(backup), 'backup 7 running · 3.0 GiB, 10,977,646 records');
  assert.equal(backupHeadline({ ...backup, status: 'completed', records: 950 }), 'backup 7 completed · 3.0 GiB, 950 records');
  assert.equal(backupHeadline({ ...backup, status: 'failed', error: 'error 1350' }), 'backup 7 failed · error 1350');
});
