import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { HistoryPoint, HistorySeries } from '../../contract.js';
import { HistoryRing } from '../../store/history-ring.js';

const KEYS = ['node.1.transactions', 'node.2.transactions', 'cluster.reads', 'node.1.reads'];
const keep = (key: string): boolean => key !== 'node.1.reads';

/** The ring's meaning, written plainly: seconds in order, each with its values, at most `capacity` of the newest. */
class Model {
  readonly rows: { at: number; values: Map<string, number> }[] = [];
  constructor(private readonly capacity: number) {}
  push(point: HistoryPoint): void {
    const last = this.rows.at(-1)?.at;
    if (last !== undefined && point.at <= last) return;
    const values = new Map<string, number>();
    for (const [key, value] of Object.entries(point.values)) if (keep(key)) values.set(key, value ?? NaN);
    this.rows.push({ at: point.at, values });
    if (this.rows.length > this.capacity) this.rows.shift();
  }
  load(history: HistorySeries): void {
    history.at.forEach((at, i) => {
      const row = this.rows.find((r) => r.at === at);
      if (!row) {
        this.push({ at, values: Object.fromEntries(history.series.map((s) => [s.key, s.values[i] ?? null])) });
        return;
      }
      for (const s of history.series) if (keep(s.key)) row.values.set(s.key, s.values[i] ?? NaN);
    });
  }
  series(key: string): { at: number[]; values: number[] } {
    return { at: this.rows.map((r) => r.at), values: this.rows.map((r) => r.values.get(key) ?? NaN) };
  }
}

const value = fc.option(fc.integer({ min: 0, max: 99 }), { nil: null });
const seconds = fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 12 }).map((s) => s.sort((a, b) => a - b).map((t) => t * 1000));
const operation = fc.oneof(
  fc.record({ kind: fc.constant('push' as const), at: fc.integer({ min: 0, max: 30 }).map((t) => t * 1000), values: fc.dictionary(fc.constantFrom(...KEYS), value) }),
  seconds.chain((at) =>
    fc.record({
      kind: fc.constant('load' as const),
      history: fc.record({
        at: fc.constant(at),
        series: fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: KEYS.length }).chain((keys) =>
          fc.tuple(...keys.map((key) => fc.array(value, { minLength: at.length, maxLength: at.length }).map((values) => ({ key, metric: 'transactions' as const, nodeId: null, values })))),
        ),
      }),
    }),
  ),
);

test('the ring holds what plainly pushing and loading the same points would: order, capacity, joined answers, kept keys only', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 8 }), fc.array(operation, { maxLength: 12 }), (capacity, operations) => {
      const ring = new HistoryRing(capacity, keep);
      const model = new Model(capacity);
      for (const op of operations) {
        if (op.kind === 'push') {
          ring.push({ at: op.at, values: op.values });
          model.push({ at: op.at, values: op.values });
        } else {
          ring.load(op.history);
          model.load(op.history);
        }
      }
      assert.equal(ring.size, model.rows.length);
      for (const key of KEYS) assert.deepEqual(ring.series(key, 0, Infinity), model.series(key), key);
    }),
    { numRuns: 2000 },
  );
});
