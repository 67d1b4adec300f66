import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { METRICS } from '../../../../contract/page-safe/vocabulary.js';
import { PIXELS_PER_PAIR, chartMaxPoints } from '../../../../contract/page-safe/chart-decimation.js';
import { ClusterHistory, type MetricValues } from '../history.js';

const HOUR = 3_600_000;

/** An hour of one-a-second cluster totals ending at `end`, aborts near 0 but for one second at `spike`. */
function hourWithSpike(end: number, spikeAt: number, spike: number): ClusterHistory {
  const history = new ClusterHistory(HOUR / 1000 + 10);
  for (let at = end - HOUR + 1000; at <= end; at += 1000) {
    const wave = Math.round(1000 + 300 * Math.sin(at / 60_000));
    const values: MetricValues = {};
    for (const m of METRICS) values[m] = wave;
    values.aborts = at === spikeAt ? spike : (at / 1000) % 7;
    history.record(at, values, new Map());
  }
  return history;
}

test('the chart over an hour gets a min/max pair per few pixels of its width, and a one-second abort spike survives', () => {
  fc.assert(
    fc.property(fc.integer({ min: 120, max: 3000 }), fc.integer({ min: 1, max: 3599 }), fc.integer({ min: 0, max: 5000 }), (plotWidth, spikeSecond, slideSeconds) => {
      const end = 1_700_000_000_000 + slideSeconds * 1000;
      const spikeAt = end - HOUR + spikeSecond * 1000;
      const history = hourWithSpike(end, spikeAt, 50_000);
      // What the Throughput view asks for: the window ending at the newest sample, decimated to its plot's width.
      const answer = history.query({ fromMs: end - HOUR, toMs: end, metrics: ['transactions', 'aborts'], maxPoints: chartMaxPoints(plotWidth) });
      // Bounded by the width: no more than one pair per PIXELS_PER_PAIR pixels (an hour of samples is far more).
      assert.ok(answer.at.length <= (2 * plotWidth) / PIXELS_PER_PAIR, `${answer.at.length} points for ${plotWidth} px`);
      assert.ok(answer.at.length >= (2 * plotWidth) / PIXELS_PER_PAIR - 8, `${answer.at.length} points for ${plotWidth} px: the width is used`);
      const aborts = answer.series.find((s) => s.metric === 'aborts')?.values ?? [];
      assert.equal(Math.max(...aborts.map((v) => v ?? -1)), 50_000, 'the spike is drawn at its full height');
      const i = aborts.indexOf(50_000);
      const bucket = HOUR / (plotWidth / PIXELS_PER_PAIR);
      assert.ok(Math.abs((answer.at[i] ?? 0) - spikeAt) <= 2 * bucket, 'and where it happened');
    }),
    { numRuns: 60 },
  );
});
