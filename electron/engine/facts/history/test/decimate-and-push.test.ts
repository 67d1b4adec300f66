import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { decimate } from '../decimate.js';

test('decimation keeps every series’ minimum and maximum and never exceeds maxPoints', () => {
  fc.assert(
    fc.property(fc.array(fc.option(fc.integer({ min: -1000, max: 1000 }), { nil: null }), { minLength: 1, maxLength: 400 }), fc.integer({ min: 2, max: 50 }), (values, maxPoints) => {
      const at = values.map((_, i) => i * 1000);
      const d = decimate(at, [values], maxPoints);
      assert.ok(d.at.length <= Math.max(maxPoints, values.length <= maxPoints ? values.length : 0));
      assert.equal(d.series[0]?.length, d.at.length);
      const present = values.filter((v): v is number => v !== null);
      const kept = (d.series[0] ?? []).filter((v): v is number => v !== null);
      if (present.length === 0) return assert.equal(kept.length, 0);
      assert.equal(Math.min(...kept), Math.min(...present));
      assert.equal(Math.max(...kept), Math.max(...present));
      assert.deepEqual([...d.at], [...d.at].sort((a, b) => a - b));
    }),
  );
});

test('decimation over a sliding window keeps every bucket but its ends, and any window stays within maxPoints', () => {
  fc.assert(
    fc.property(fc.integer({ min: 4, max: 60 }), fc.integer({ min: 1, max: 500 }), fc.integer({ min: 0, max: 10_000 }), (maxPoints, slide, origin) => {
      const samples = Array.from({ length: 2000 }, (_, i) => origin + i * 1000);
      const values = samples.map((t) => Math.round(1000 * Math.sin(t / 7777)));
      const window = (fromMs: number) => {
        const toMs = fromMs + 600_000;
        const inside = samples.map((t, i) => [t, i] as const).filter(([t]) => t >= fromMs && t <= toMs);
        return decimate(inside.map(([t]) => t), [inside.map(([, i]) => values[i] ?? null)], maxPoints, { fromMs, toMs });
      };
      const a = window(origin + 100_000);
      const b = window(origin + 100_000 + slide * 1000);
      for (const d of [a, b]) assert.ok(d.at.length <= maxPoints, `${d.at.length} points for ${maxPoints}`);
      const rows = (d: typeof a) => d.at.map((t, i) => `${t}:${d.series[0]?.[i]}`);
      // Whole buckets (two rows each) of the first window that lie inside the second come back unchanged.
      const inB = new Set(rows(b));
      const shared = rows(a).filter((r) => inB.has(r)).length;
      const bucketsSlid = Math.ceil((slide * 1000) / Math.ceil(600_001 / Math.max(1, Math.floor(maxPoints / 2) - 1)));
      assert.ok(shared >= rows(a).length - 2 * (bucketsSlid + 2), `${shared} of ${rows(a).length} rows kept after sliding ${slide} s`);
    }),
  );
});
