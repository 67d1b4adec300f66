import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BackupStatus } from '../../../../contract/schemas/backups.js';
import type { ClusterSnapshot } from '../../../../contract/schemas/snapshot.js';
import { createEngine } from '../../../create-engine.js';
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
