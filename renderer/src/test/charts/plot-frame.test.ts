import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nextPlotFrame, type ChartRow, type PlotFrame } from '../../view-model/charts/chart-rows.js';

const HOUR = 3_600_000;
const BUCKET = 8_000;

/** A full hour's frame whose rows end with a sample at `newest`. */
function frame(newest: number, windowMs = HOUR, bucketMs = BUCKET): PlotFrame {
  const rows: ChartRow[] = [
    { at: newest - windowMs + 500, transactions: 1 },
    { at: newest, transactions: 2 },
  ];
  return { rows, from: newest - windowMs + 500, until: newest + 200, windowMs, bucketMs };
}

test('the plot keeps its frame while answers only fill the newest bucket, and takes the next once a bucket closed', () => {
  const shown = frame(80_000);
  // 81 s and 87.9 s are in the bucket [80 s, 88 s): the picture differs only at its right edge.
  assert.equal(nextPlotFrame(shown, frame(81_000)), shown);
  assert.equal(nextPlotFrame(shown, frame(87_999)), shown);
  const closed = frame(88_000);
  assert.equal(nextPlotFrame(shown, closed), closed);
});

test('the plot takes every answer when there is nothing shown, the window or width changed, or the axis is zoomed to what there is', () => {
  const first = frame(80_000);
  assert.equal(nextPlotFrame(null, first), first);
  const fiveMinutes = frame(81_000, 300_000, 700);
  assert.equal(nextPlotFrame(first, fiveMinutes), fiveMinutes);
  const narrower = frame(81_000, HOUR, 2 * BUCKET);
  assert.equal(nextPlotFrame(first, narrower), narrower);
  // Ten minutes of samples in an hour's window: the axis starts at the first one, and each answer moves it.
  const young = { ...frame(81_000), from: 81_000 - 600_000 };
  assert.equal(nextPlotFrame({ ...first, from: 80_000 - 600_000 }, young), young);
  const empty = { ...frame(81_000), rows: [] };
  assert.equal(nextPlotFrame(first, empty), empty);
});
