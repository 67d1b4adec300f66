import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { decimate } from '../history/decimate.js';

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
