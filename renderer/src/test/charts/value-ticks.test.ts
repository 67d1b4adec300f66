import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { valueTicks } from '../../view-model/charts/value-ticks.js';

test('rate axis ticks start at 0, reach the highest value, are round whole numbers and few', () => {
  assert.deepEqual(valueTicks(1234), [0, 500, 1000, 1500]);
  assert.deepEqual(valueTicks(50_000), [0, 20_000, 40_000, 60_000]);
  assert.deepEqual(valueTicks(0), [0, 1]);
  assert.deepEqual(valueTicks(3), [0, 1, 2, 3]);
  fc.assert(
    fc.property(fc.double({ min: 0, max: 1e10, noNaN: true }), (max) => {
      const ticks = valueTicks(max);
      assert.equal(ticks[0], 0);
      assert.ok((ticks[ticks.length - 1] ?? 0) >= max);
      assert.ok((ticks[ticks.length - 2] ?? 0) < max || max === 0, 'no tick wasted above the top');
      assert.ok(ticks.length >= 2 && ticks.length <= 6, `${ticks.length} ticks`);
      const step = ticks[1] ?? 0;
      assert.ok(Number.isInteger(step) && /^(1|2|25|5)0*$/.test(String(step)), `step ${step}`);
      for (let i = 1; i < ticks.length; i++) assert.equal(ticks[i], i * step);
    }),
  );
});
