import assert from 'node:assert/strict';
import { test } from 'node:test';
import { trend, type TrendPoint } from './trend.js';

// A ten-minute soak as the machine gives it: nine scenarios in three cycles of 22 s slices, samples every 3 s
// when the machine is quiet and up to 20 s apart when it is not, each scenario keeping its own amount of heap
// (±10 MB around 105 MB, as the soak saw after a full GC) that drifts ±3 MB within its slice, ±1.5 MB of noise,
// and one sample in ten 8 MB high. Judged after the first cycle, as the soak does.
const SLICE_MS = 22_000;
const SCENARIOS = 9;

function lcg(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => ((x = (Math.imul(x, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32);
}

function soakRun(seed: number, leakMbPerMinute: number, offsetOf: (scenario: number) => number): TrendPoint[] {
  const rnd = lcg(seed);
  const points: TrendPoint[] = [];
  for (let t = 0; t < 3 * SCENARIOS * SLICE_MS; t += 3000 + rnd() * rnd() * 17_000) {
    const slice = Math.floor(t / SLICE_MS);
    const scenario = slice % SCENARIOS;
    const inSlice = (t % SLICE_MS) / SLICE_MS;
    const v = 105 + offsetOf(scenario) + 6 * (inSlice - 0.5) * (scenario % 2 ? 1 : -1) + 3 * (rnd() - 0.5) + (rnd() < 0.1 ? 8 : 0);
    if (slice >= SCENARIOS) points.push({ t, v: v + (leakMbPerMinute * t) / 60_000, group: `s${scenario}`, slice });
  }
  return points;
}

const scattered = (scenario: number): number => ((scenario * 7) % SCENARIOS) * 2.5 - 10;

test('a soak without a leak stays under 5 % growth whatever the noise and the scenario mix', () => {
  for (let seed = 1; seed <= 200; seed += 1) {
    const g = trend(soakRun(seed, 0, scattered)).growth;
    assert.ok(Math.abs(g) < 0.05, `seed ${seed}: growth ${(g * 100).toFixed(1)} %`);
  }
});

test('a leak of 2 MB a minute always fails the ten-minute soak, one of 1 MB a minute nearly always', () => {
  const growth = (leak: number): number[] => Array.from({ length: 200 }, (_, i) => trend(soakRun(i + 1, leak, scattered)).growth);
  for (const [seed, g] of growth(2).entries()) assert.ok(g > 0.05, `2 MB/min, seed ${seed + 1}: growth ${(g * 100).toFixed(1)} %`);
  // 1 MB a minute is 6 % of the heap over the judged 6.6 minutes: the fitted line finds it in most runs, and the
  // 24-hour soak in every one.
  const caught = growth(1).filter((g) => g > 0.05).length;
  assert.ok(caught >= 150, `1 MB/min caught in ${caught} of 200 runs`);
});

test('scenarios that happen to come in order of their heap do not pass for growth', () => {
  const rising = (scenario: number): number => scenario * 5 - 20;
  const points = soakRun(7, 0, rising);
  assert.ok(Math.abs(trend(points).growth) < 0.02, `grouped by scenario: ${trend(points).growth}`);
  // The same samples without their scenario: a line through them climbs, which is what the soak must not judge.
  const blind = trend(points.map(({ t, v }) => ({ t, v })));
  assert.ok(blind.growth > 0.05, `ungrouped: ${blind.growth}`);
});

test('the fitted line gives start, end and slope of a clean series exactly', () => {
  const r = trend([0, 1, 2, 3].map((m) => ({ t: m * 60_000, v: 100 + 2 * m })));
  assert.deepEqual([r.start, r.end, r.slopePerHour, r.growth, r.spread, r.pairs], [100, 106, 120, 0.06, 0, 6]);
});
