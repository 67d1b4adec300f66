import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createEngine } from '../create-engine.js';
import { createReplayEngine } from '../recording/replay.js';
import { waitFor } from './helpers.js';

test('runs are recorded: a replay derives the same runs and summaries, refuses new marks, and a recording can be imported for comparison', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-runs-'));
  const file = join(dir, 'rec.jsonl');
  try {
    const live = await createEngine({ host: 'serve', pollIntervalMs: 500, recordFile: file, simulator: { scenario: 'steady', dataNodes: 2, speed: 4 }, collapse: { dropShare: 0.3, windowMs: 5000 } });
    let liveReport;
    try {
      await waitFor('load', async () => ((await live.handlers.getSnapshot({})).rates?.transactions ?? 0) > 0, 30_000);
      const run = await live.handlers.startRun({ name: 'A', tags: { nodes: '2' }, phase: 'one' });
      await waitFor('two samples', async () => ((await live.handlers.getRunReports({ runIds: [run.id], figure: 'transactions' })).runs[0]?.summary.transactions?.samples ?? 0) >= 2, 30_000);
      await live.handlers.markPhase({ name: 'two' });
      await waitFor('four samples', async () => ((await live.handlers.getRunReports({ runIds: [run.id], figure: 'transactions' })).runs[0]?.summary.transactions?.samples ?? 0) >= 4, 30_000);
      await live.handlers.stopRun({});
      await assert.rejects(live.handlers.stopRun({}), /no run is running/);
      liveReport = (await live.handlers.getRunReports({ runIds: [run.id], figure: 'transactions' })).runs[0];
    } finally {
      await live.close();
    }
    assert.ok(liveReport);
    const clusterLine = (await readFile(file, 'utf8')).split('\n').map((l) => JSON.parse(l || '{}') as { kind?: string; collapse?: unknown }).find((l) => l.kind === 'cluster');
    assert.deepEqual(clusterLine?.collapse, { dropShare: 0.3, windowMs: 5000 }, 'the collapse settings are recorded with the cluster');

    const replay = await createReplayEngine({ file, speed: Infinity });
    try {
      await replay.finished;
      const replayed = (await replay.handlers.getRunReports({ figure: 'transactions' })).runs;
      assert.deepEqual(replayed.map((r) => r.id), [liveReport.id]);
      assert.deepEqual(replayed[0]?.summary, liveReport.summary);
      assert.deepEqual(replayed[0]?.phases.map((p) => p.name), ['one', 'two']);
      await assert.rejects(replay.handlers.startRun({ name: 'B' }), (err: Error & { code?: string }) => err.code === 'UNSUPPORTED');

      const imported = await replay.handlers.importRecording({ name: 'rec.jsonl', content: await readFile(file, 'utf8') });
      assert.deepEqual(imported.map((r) => r.name), ['A']);
      const both = await replay.handlers.getRunReports({ runIds: [liveReport.id, imported[0]?.id ?? ''], figure: 'transactions' });
      assert.equal(both.runs[1]?.source, 'rec.jsonl');
      assert.equal(both.comparison?.rows[0]?.ratios.find((r) => r.figure === 'transactions')?.ratio, 1, 'a run against itself');
      await assert.rejects(replay.handlers.importRecording({ name: 'bad', content: 'not a recording\n' }), /not an ndbtop recording/);
    } finally {
      await replay.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
