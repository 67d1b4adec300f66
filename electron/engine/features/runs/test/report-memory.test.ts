import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { bigRecording } from '../../../../../bench/big-recording.js';
import { createEngine } from '../../../create-engine.js';
import { createReplayEngine, type ReplayOptions } from '../../../recording/replay.js';
import { REPORT_HISTORY_S, reportsOfRecording } from '../recording-runs.js';
import { NEAR_PEAK_HELD } from '../run-stream.js';

test("report of a run longer than the report's history: the replay holds 10 minutes of node figures, and says what a whole-run history says", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-report-memory-'));
  try {
    // A few seconds of the simulator with its SQL node (so every second carries each data node's thread figures),
    // repeated into a recording of one run of ~25 minutes, ~900 ticks (a sample also holds its start-up, before any tick).
    const sample = join(dir, 'sample.rec');
    const live = await createEngine({ host: 'serve', pollIntervalMs: 1000, recordFile: sample, simulator: { scenario: 'steady', dataNodes: 2, speed: 4 } });
    await new Promise((r) => setTimeout(r, 4000));
    await live.close();
    const file = join(dir, 'long.rec');
    const { firstT, lastT } = await bigRecording(file, sample, 1e7);
    assert.ok(lastT - firstT > (REPORT_HISTORY_S + 30) * 1000, `the run outlasts the report's history: ${(lastT - firstT) / 1000} s`);

    const held: Array<{ historyTicks: number; heldTicks: number; seriesTicks: number }> = [];
    // What the replay holds once its runs are reported, just before it closes.
    const watched = async (options: ReplayOptions) => {
      const engine = await createReplayEngine(options);
      const close = engine.close.bind(engine);
      return Object.assign(engine, {
        close: async () => {
          for (const e of engine.entries()) {
            const stream = e.tracker.runStream;
            assert.ok(stream, "a report's replay summarises runs as they play");
            held.push({ historyTicks: e.tracker.history.query({ metrics: ['transactions'] }).at.length, ...stream.retained() });
          }
          await close();
        },
      });
    };
    // Played, as a file written before digests is (with them, `report` reads no poll: digest-report.test.ts).
    const { reports } = await reportsOfRecording(file, 'long.rec', watched, undefined, undefined, false);
    const [report] = reports;
    assert.ok(report && reports.length === 1);
    const ticks = report.series.offsetMs.length;
    assert.ok(ticks > REPORT_HISTORY_S, `the run has ${ticks} ticks over ${(lastT - firstT) / 1000} s`);
    // One play, or two when the run never held steady (its seconds near the peak are picked by the second).
    assert.ok(held.length === 1 || held.length === 2, `${held.length} plays`);
    for (const h of held) {
      assert.ok(h.historyTicks <= REPORT_HISTORY_S, `the replay's history held ${h.historyTicks} ticks of every node (bound ${REPORT_HISTORY_S}), the run had ${ticks}`);
      assert.ok(h.heldTicks <= 3 + NEAR_PEAK_HELD, `ticks of every node's figures held for the summary: ${h.heldTicks}`);
      assert.equal(h.seriesTicks, ticks, "beyond that, only the cluster's series the report carries");
    }
    assert.equal(report.summary.bottleneck.kind, 'outside-data-nodes', 'the verdict was read from the SQL source');

    // The same run from a history as long as the recording, as reports were made before.
    const whole = await createReplayEngine({ file, speed: Infinity, historySeconds: Math.ceil((lastT - firstT) / 1000) + 60 });
    try {
      await whole.finished;
      const [entry] = whole.entries();
      const [run] = entry?.tracker.runs.list() ?? [];
      assert.ok(entry && run);
      assert.deepEqual(report, { ...entry.tracker.runReport(run), source: 'long.rec' });
    } finally {
      await whole.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
