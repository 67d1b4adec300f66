import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CollapseDetector, DEFAULT_COLLAPSE } from '../runs/collapse.js';

/** Feeds one sample a second from t = 0; returns the times a collapse was reported. */
function feed(values: Array<number | null>, marks: number[] = []): number[] {
  const d = new CollapseDetector(DEFAULT_COLLAPSE);
  const fired: number[] = [];
  values.forEach((v, i) => {
    const at = i * 1000;
    for (const m of marks) if (m > at - 1000 && m <= at) d.mark(m);
    if (d.sample(at, v)) fired.push(at);
  });
  return fired;
}

const steady = (n: number, level = 100_000): number[] => Array.from({ length: n }, (_, i) => level * (1 + 0.05 * Math.sin(i)));
const fall = (from: number, to: number, steps: number): number[] => Array.from({ length: steps }, (_, i) => from + ((to - from) * (i + 1)) / steps);

test('a fall by more than half within the window after a steady stretch is a collapse, reported once', () => {
  const values = [...steady(30), ...fall(100_000, 12_000, 3), ...steady(40, 12_000)];
  // 30 steady samples (0..29 s), the fall reaches 12k at 32 s; 50 % is crossed at 31 s, confirmed by the next.
  assert.deepEqual(feed(values), [32_000]);
});

test('no collapse when the fall is a marked stop or phase change, within the window or the stretch before it', () => {
  const values = [...steady(30), ...fall(100_000, 0, 3), ...steady(20, 0)];
  assert.deepEqual(feed(values, [29_500]), []);
  assert.deepEqual(feed(values, [20_000]), [], 'a mark in the steady stretch before the window');
  assert.deepEqual(feed([...steady(30), ...fall(100_000, 30_000, 2), ...steady(20, 30_000)], [30_100]), []);
});

test('no collapse on a slow decline, a single bad sample, a gap, an idle cluster or a workload that was not steady', () => {
  assert.deepEqual(feed([...steady(20), ...fall(100_000, 40_000, 60)]), [], 'slow decline');
  assert.deepEqual(feed([...steady(20), 10_000, ...steady(20)]), [], 'one bad sample');
  assert.deepEqual(feed([...steady(20), null, null, ...steady(20)]), [], 'a gap');
  assert.deepEqual(feed([...steady(20, 5), 0, 0, 0, 0]), [], 'idle');
  const ragged = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? 100_000 : 40_000));
  assert.deepEqual(feed([...ragged, 5000, 5000, 5000]), [], 'ragged');
});

test('the drop share and window are configurable', () => {
  const d = new CollapseDetector({ dropShare: 0.2, windowMs: 4000 });
  const values = [...steady(10), 70_000, 70_000, 70_000];
  const fired = values.map((v, i) => d.sample(i * 1000, v)).filter((c) => c !== null);
  assert.equal(fired.length, 1);
  assert.ok(fired[0] && fired[0].before > 95_000 && fired[0].after === 70_000);
});
