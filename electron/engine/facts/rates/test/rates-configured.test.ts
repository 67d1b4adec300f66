import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { BlockInstances } from '../../../../../native-mgm/index.js';
import { RateTracker } from '../rates.js';
import { REPORT_PERIOD_MS } from '../report-stream.js';
import { disorder, disorderedStream, NODE, report as tcReport } from './disordered-stream.js';

test('a configured node: a starved sender\'s catch-up burst in its first periods does not move its rate', () => {
  const tracker = new RateTracker((id) => (id === NODE ? { tc: 4, lqh: 4 } : null));
  // Four instances, each doing 1,000 reads per 5 s period: 800 reads/s for the node, whatever arrives when.
  const perReport = 1000;
  const expected = (4 * perReport * 1000) / REPORT_PERIOD_MS;
  const readings: number[] = [];
  const feed = (at: number): void => {
    tracker.apply(tcReport(at, perReport));
    readings.push(tracker.node(NODE)!.reads);
  };
  // The first period on time, one report per instance.
  for (const phase of [400, 1700, 2900, 4600]) feed(phase);
  // The sender stalls for three periods, then its timers fire late, all at once: 12 reports in one tick.
  for (let i = 0; i < 12; i++) feed(19_000);
  // Then again on time, and a second, shorter burst.
  for (let k = 4; k < 8; k++) for (const phase of [400, 1700, 2900, 4600]) feed(phase + k * REPORT_PERIOD_MS);
  for (let i = 0; i < 8; i++) feed(47_000);
  assert.deepEqual(new Set(readings), new Set([expected]), `every reading is ${expected} reads/s`);
});

test('configured nodes read true rates from their first report on, whatever delay, bunching, loss or duplication', () => {
  fc.assert(
    fc.property(disorder, (d) => {
      const counts: BlockInstances = { tc: d.instances, lqh: d.instances };
      const tracker = new RateTracker(() => counts);
      for (const e of disorderedStream(d, 30)) {
        tracker.apply(e);
        const r = tracker.node(NODE);
        assert.ok(r);
        const min = d.instances * d.lo * 0.999 - 1;
        const max = d.instances * d.hi * 1.001 + 1;
        assert.ok(r.reads >= min && r.reads <= max, `${r.reads} reads/s, true range [${min}, ${max}]`);
      }
    }),
    { numRuns: 200 },
  );
});

test('a new configuration applies to a running node from its next restart, as a data node reads it when it starts', () => {
  let counts: BlockInstances | null = null;
  const tracker = new RateTracker(() => counts);
  const perReport = 500;
  const node = (): number => tracker.node(NODE)!.reads;
  // Not read yet: one report per period counts one instance.
  for (let k = 0; k < 3; k++) tracker.apply(tcReport(1000 + k * REPORT_PERIOD_MS, perReport));
  assert.equal(node(), 100);
  counts = { tc: 2, lqh: 2 };
  tracker.configurationRead();
  assert.equal(node(), 200, 'the first configuration read decides for a node that had none');
  counts = { tc: 8, lqh: 8 };
  tracker.configurationRead();
  tracker.apply(tcReport(20_000, perReport));
  assert.equal(node(), 200, 'still running with the threads it started with');
  tracker.restarted(NODE);
  tracker.apply(tcReport(30_000, perReport));
  assert.equal(node(), 800, 'restarted with the new ThreadConfig');
});
