import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { HistorySeries } from '../../contract.js';
import { lastValues, toRows } from '../../view-model/charts/chart-rows.js';
import { sampleAt, sparkGeometry } from '../../view-model/charts/spark-geometry.js';

const METRICS = ['transactions', 'reads'] as const;

function series(at: number[], transactions: Array<number | null>, reads: Array<number | null>): HistorySeries {
  return {
    at,
    series: [
      { key: 'cluster.transactions', metric: 'transactions', nodeId: null, values: transactions },
      { key: 'cluster.reads', metric: 'reads', nodeId: null, values: reads },
      // Per-node series never become columns of the cluster chart.
      { key: 'node.1.transactions', metric: 'transactions', nodeId: 1, values: transactions.map(() => 999) },
    ],
  };
}

test('rows carry each cluster column by time, null where the engine had no value', () => {
  const rows = toRows(series([1000, 2000], [5, null], [7, 8]), METRICS);
  assert.deepEqual(rows, [
    { at: 1000, transactions: 5, reads: 7 },
    { at: 2000, transactions: null, reads: 8 },
  ]);
  assert.deepEqual(toRows(null, METRICS), []);
});

test('rows of an answer that moved by a pixel are the previous objects where nothing changed', () => {
  const first = toRows(series([1000, 2000, 3000], [1, 2, 3], [4, 5, 6]), METRICS);
  const moved = toRows(series([2000, 3000, 4000], [2, 30, 4], [5, 6, 7]), METRICS, first);
  assert.equal(moved[0], first[1], 'an unchanged row is the same object');
  assert.notEqual(moved[1], first[2], 'a row whose value changed is new');
  assert.deepEqual(moved[1], { at: 3000, transactions: 30, reads: 6 });
  assert.deepEqual(moved[2], { at: 4000, transactions: 4, reads: 7 });
  // The same answer again: the very same array, so nothing downstream recomputes.
  assert.equal(toRows(series([2000, 3000, 4000], [2, 30, 4], [5, 6, 7]), METRICS, moved), moved);
});

test('shared rows never differ from rows built afresh', () => {
  const answer = fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.option(fc.integer({ min: 0, max: 9 }), { nil: null }), fc.option(fc.integer({ min: 0, max: 9 }), { nil: null })), { maxLength: 30 });
  fc.assert(
    fc.property(answer, answer, (a, b) => {
      const build = (rows: typeof a) => series(rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]));
      assert.deepEqual(toRows(build(b), METRICS, toRows(build(a), METRICS)), toRows(build(b), METRICS));
    }),
  );
});

test('the current value of each series is its newest finite one', () => {
  const rows = toRows(series([1, 2, 3], [1, 2, null], [null, null, null]), METRICS);
  assert.deepEqual([...lastValues(rows, METRICS)], [['transactions', 2]]);
});

test('a sparkline spans the width, puts the highest value at the top and breaks at missing samples', () => {
  const g = sparkGeometry([0, 10, NaN, 5, 10], 8, 12);
  assert.ok(g);
  assert.equal(g.step, 2);
  assert.equal(g.max, 10);
  assert.deepEqual(g.runs, [
    [0, 11, 2, 1],
    [6, 6, 8, 1],
  ]);
  assert.equal(sparkGeometry([NaN, 3], 8, 12), null, 'one value is no line');
  assert.equal(sampleAt(g, 5, 2.9), 1);
  assert.equal(sampleAt(g, 5, 7.9), 4);
  assert.equal(sampleAt(g, 5, 9.5), null);
});
