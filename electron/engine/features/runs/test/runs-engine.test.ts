import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createEngine } from '../../../create-engine.js';
import type { ClusterLine } from '../../../recording/recording-format.js';
import { readRecording } from '../../../recording/recording-reader.js';
import { createReplayEngine } from '../../../recording/replay.js';
import { waitFor } from '../../../test/helpers.js';

test('runs are recorded: a replay derives the same runs and summaries, refuses new marks, and a recording can be imported for comparison', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-runs-'));
  const file = join(dir, 'rec.jsonl');
  try {
    const live = await createEngine({ host: 'serve', pollIntervalMs: 500, recordFile: file, simulator: { scenario: 'steady', dataNodes: 2, speed: 4 }, collapse: { dropShare: 0.3, windowMs: 5000 } });
    let liveReport;
    try {
      await waitFor('load', async () => ((await live.handlers.getSnapshot({})).rates?.transactions ?? 0) > 0, 30_000);
      // The simulator's SQL node too, so the run's bottleneck is read from the data nodes' figures.
      await waitFor('threads from ndbinfo', async () => ((await live.handlers.getSnapshot({})).ndbinfoNodes ?? []).some((n) => n.threads && !n.stale), 30_000);
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
    assert.ok(liveReport.summary.bottleneck.evidence.some((e) => /^LDM threads: \d+ % busy/.test(e)), `read from the data nodes' threads: ${JSON.stringify(liveReport.summary.bottleneck)}`);
    const clusterLine = (await readRecording(file)).lines.find((l): l is ClusterLine => l.kind === 'cluster');
    assert.deepEqual(clusterLine?.collapse, { dropShare: 0.3, windowMs: 5000 }, 'the collapse settings are recorded with the cluster');

    const replay = await createReplayEngine({ file, speed: Infinity });
    try {
      await replay.finished;
      const replayed = (await replay.handlers.getRunReports({ figure: 'transactions' })).runs;
      assert.deepEqual(replayed.map((r) => r.id), [liveReport.id]);
      // The bottleneck too: the recording holds the SQL source's samples, and the replay derives the verdict again.
      assert.deepEqual(replayed[0]?.summary, liveReport.summary);
      assert.deepEqual(replayed[0]?.phases.map((p) => p.name), ['one', 'two']);
      await assert.rejects(replay.handlers.startRun({ name: 'B' }), (err: Error & { code?: string }) => err.code === 'UNSUPPORTED');

      // An import (serve's upload and the desktop's app:// upload both end here) reads the file as `ndbtop report` does.
      const recordings = replay.recordings;
      assert.ok(recordings);
      const imported = await recordings.importFile(file, 'rec.jsonl');
      assert.deepEqual(imported.map((r) => [r.name, r.source]), [['A', 'rec.jsonl']], 'marked imported, from its file');
      const again = await recordings.importFile(file, 'rec.jsonl');
      assert.deepEqual(again.map((r) => r.name), ['A (rec.jsonl)'], 'a second import of a run named alike gets a distinct name');
      assert.deepEqual((await replay.handlers.listImportedRuns({})).map((r) => r.id), [...imported, ...again].map((r) => r.id), 'the engine keeps them (a reloaded page lists them)');
      const both = await replay.handlers.getRunReports({ runIds: [liveReport.id, imported[0]?.id ?? ''], figure: 'transactions' });
      assert.equal(both.runs[1]?.source, 'rec.jsonl');
      assert.equal(both.comparison?.rows[0]?.ratios.find((r) => r.figure === 'transactions')?.ratio, 1, 'a run against itself');
      const notRecording = join(dir, 'not-a-recording');
      await writeFile(notRecording, 'not a recording\n');
      await assert.rejects(recordings.importFile(notRecording, 'bad'), /not an ndbtop recording/);
    } finally {
      await replay.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
