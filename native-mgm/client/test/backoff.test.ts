import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Backoff, DEFAULT_BACKOFF_BASE_MS, DEFAULT_BACKOFF_CAP_MS } from '../backoff.js';

const almostOne = 1 - Number.EPSILON;

function take(backoff: Backoff, count: number): number[] {
  return Array.from({ length: count }, () => backoff.next());
}

test('defaults: the ceiling doubles from 250 ms and stops at 10 s', () => {
  assert.equal(DEFAULT_BACKOFF_BASE_MS, 250);
  assert.equal(DEFAULT_BACKOFF_CAP_MS, 10_000);
  assert.deepEqual(take(new Backoff({ random: () => almostOne }), 9), [249, 499, 999, 1999, 3999, 7999, 9999, 9999, 9999]);
});

test('full jitter: the delay is the random fraction of the ceiling, down to 0', () => {
  assert.deepEqual(take(new Backoff({ random: () => 0 }), 4), [0, 0, 0, 0]);
  assert.deepEqual(take(new Backoff({ random: () => 0.5 }), 4), [125, 250, 500, 1000]);
});

test('reset goes back to the shortest delays', () => {
  const backoff = new Backoff({ random: () => almostOne });
  take(backoff, 20);
  backoff.reset();
  assert.deepEqual(take(backoff, 3), [249, 499, 999]);
});

test('custom base and cap', () => {
  assert.deepEqual(take(new Backoff({ baseMs: 100, capMs: 300, random: () => almostOne }), 4), [99, 199, 299, 299]);
  assert.deepEqual(take(new Backoff({ baseMs: 100, capMs: 100, random: () => almostOne }), 2), [99, 99]);
});

test('bad options and a bad random source are refused', () => {
  assert.throws(() => new Backoff({ baseMs: 0 }), RangeError);
  assert.throws(() => new Backoff({ baseMs: Number.NaN }), RangeError);
  assert.throws(() => new Backoff({ baseMs: 500, capMs: 100 }), RangeError);
  assert.throws(() => new Backoff({ capMs: Number.POSITIVE_INFINITY }), RangeError);
  assert.throws(() => new Backoff({ random: () => 1 }).next(), RangeError);
  assert.throws(() => new Backoff({ random: () => -0.1 }).next(), RangeError);
});

test('every delay is a whole number in [0, min(cap, base * 2^n)), however long the outage', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 5000 }),
      fc.integer({ min: 0, max: 100_000 }),
      fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1, maxLength: 80 }),
      (baseMs, extra, randoms) => {
        const capMs = baseMs + extra;
        let i = 0;
        const backoff = new Backoff({ baseMs, capMs, random: () => randoms[i++ % randoms.length] ?? 0 });
        for (let n = 0; n < 200; n += 1) {
          const delay = backoff.next();
          assert.ok(Number.isInteger(delay));
          assert.ok(delay >= 0 && delay < Math.min(capMs, baseMs * 2 ** n), `delay ${delay} at step ${n}`);
        }
      },
    ),
  );
});
