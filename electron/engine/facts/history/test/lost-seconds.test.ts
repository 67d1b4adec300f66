import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ClusterHistory } from '../history.js';

test('seconds the engine did not sample come back to a chart as a row of no figures, so its line breaks there', () => {
  const h = new ClusterHistory(60);
  const one = (reads: number): Map<number, { reads: number }> => new Map([[2, { reads }]]);
  // A tick a little late (2.3 s after the one before) lost no second; 3.1 s later, two seconds went unsampled.
  for (const [at, reads] of [[1000, 10], [2000, 20], [4300, 30], [7400, 40], [8400, 50]] as const) h.record(at, { reads }, one(reads));
  const q = h.query({ metrics: ['reads'], nodeIds: [2] }, { shown: true });
  assert.deepEqual(q.at, [1000, 2000, 4300, 5300, 7400, 8400]);
  for (const s of q.series) assert.deepEqual(s.values, [10, 20, 30, null, 40, 50], s.key);
  const ranged = h.query({ metrics: ['reads'], fromMs: 4300, toMs: 8400 }, { shown: true });
  assert.deepEqual(ranged.at, [4300, 5300, 7400, 8400]);
  // The engine's own derivations (run and incident figures, exports) read the samples as taken.
  assert.deepEqual(h.query({ metrics: ['reads'] }).at, [1000, 2000, 4300, 7400, 8400]);
});
