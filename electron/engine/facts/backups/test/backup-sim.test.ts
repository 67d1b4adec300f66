import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { BackupStatus } from '../../../../contract/schemas/backups.js';
import type { ClusterSnapshot } from '../../../../contract/schemas/snapshot.js';
import { createEngine } from '../../../create-engine.js';
import { createReplayEngine } from '../../../recording/replay.js';
import { waitFor } from '../../../test/helpers.js';

const POLL_MS = 200;

/**
 * A backup the simulator runs at its data size and disk speed, watched by the engine: every ETA range shown while it
 * ran holds the real end (the model's BackupCompleted), the nodes' figures add up to what the cluster said at the end.
 */
async function backupWatched(dataNodes: number, speed: number): Promise<void> {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', dataNodes, speed, sql: false }, pollIntervalMs: POLL_MS, memoryRefreshMs: 1000 });
  try {
    const sim = engine.simulator;
    assert.ok(sim);
    await waitFor(
      'every data node STARTED, the configuration and memory read',
      async () => {
        const s = (await engine.handlers.getSnapshot({})) as ClusterSnapshot;
        const data = s.nodes.filter((n) => n.type === 'NDB');
        return data.length === dataNodes && data.every((n) => n.status === 'STARTED' && n.memory.data !== null) && s.configGeneration !== null;
      },
      120_000,
    );
    const handle = sim.model.backups.start();
    assert.ok(!('error' in handle));
    let endedAt: number | null = null;
    void handle.completed.then(() => (endedAt = Date.now()));
    const shown: Array<NonNullable<BackupStatus['running']>> = [];
    const done = await waitFor(
      'the backup in the past list',
      async () => {
        const b = await engine.handlers.getBackups({});
        if (b.running && endedAt === null) shown.push(b.running);
        return b.last.find((p) => p.backupId === handle.id);
      },
      120_000,
    );
    const end = endedAt ?? 0;
    const ranged = shown.filter((r) => r.etaRangeMs);
    assert.ok(ranged.length >= 3, `ETA ranges shown while it ran: ${ranged.length} of ${shown.length} readings`);
    for (const r of ranged) {
      const { fromMs, toMs } = r.etaRangeMs ?? { fromMs: 0, toMs: 0 };
      const at = r.at ?? 0;
      // The engine hears the end up to a poll after the model: allowed on either side.
      assert.ok(at + fromMs <= end + POLL_MS && end <= at + toMs + POLL_MS, `ETA ${fromMs}–${toMs} ms from ${at}; the backup ended ${end - at} ms after it`);
      assert.equal(r.etaMs, toMs);
      assert.ok((r.bytesPerSec ?? 0) > 0);
    }
    const last = shown.at(-1);
    assert.ok(last);
    assert.deepEqual(last.nodes.map((n) => n.nodeId), [...sim.model.data.keys()].sort((a, b) => a - b), 'every data node reports its own progress');
    assert.ok(last.nodes.every((n) => n.bytes > 0 && n.records > 0 && (n.toBackupBytes ?? 0) > n.bytes * 0.5));
    assert.equal(done.outcome, 'completed');
    assert.ok(done.bytes >= last.nodes.reduce((s, n) => s + n.bytes, 0), 'the end sums at least what the nodes last said');
    assert.ok(done.endedAt > done.startedAt);
    process.stderr.write(`${dataNodes} data nodes: ${ranged.length} ETA ranges, first ${JSON.stringify(ranged[0]?.etaRangeMs)}, real end after ${end - (ranged[0]?.at ?? 0)} ms\n`);
  } finally {
    await engine.close();
  }
}

test('a backup at 4 data nodes: progress per node, and every ETA range holds the real end', async () => {
  await backupWatched(4, 4);
});

test('a backup at 48 data nodes: progress per node, and every ETA range holds the real end', async () => {
  await backupWatched(48, 5);
});

test('the backup scenario: the second backup, on busy disks, raises backup-slow; a recording keeps the backups and the alert, its replay derives them again', { timeout: 180_000 }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-backup-replay-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'rec.jsonl.gz');
  const live = await createEngine({ host: 'serve', pollIntervalMs: POLL_MS, memoryRefreshMs: 1000, recordFile: file, simulator: { scenario: 'backup', dataNodes: 4, speed: 8, sql: false } });
  let last: BackupStatus['last'];
  let slow: { at: number; message: string };
  try {
    last = await waitFor('two backups over', async () => {
      const b = await live.handlers.getBackups({});
      return b.last.length >= 2 ? b.last : null;
    }, 120_000);
    const alerts = (await live.handlers.getSnapshot({})).alerts.filter((a) => a.kind === 'backup-slow');
    assert.equal(alerts.length, 1, 'the slow one raised it, once');
    const [alert] = alerts;
    assert.ok(alert && alert.resolvedAt !== null, 'over with its backup');
    assert.match(alert.message, /^Backup 2 writes \S+ MB\/s, under half of backup 1's \S+ MB\/s$/);
    slow = { at: alert.at, message: alert.message };
    const [first, second] = last;
    assert.ok(first && second);
    assert.ok(second.endedAt - second.startedAt > 2 * (first.endedAt - first.startedAt), 'the busy disks took more than twice as long');
  } finally {
    await live.close();
  }
  const replay = await createReplayEngine({ file, speed: Infinity });
  try {
    await replay.finished;
    const again = await replay.handlers.getBackups({});
    assert.deepEqual(again.last.slice(0, last.length), last, 'the same past backups, to the millisecond');
    const alerts = (await replay.handlers.getSnapshot({})).alerts.filter((a) => a.kind === 'backup-slow');
    assert.deepEqual(alerts.map((a) => ({ at: a.at, message: a.message })).slice(0, 1), [slow]);
  } finally {
    await replay.close();
  }
});
