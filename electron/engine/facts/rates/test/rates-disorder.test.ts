import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { RateTracker } from '../rates.js';
import { disorder, disorderedStream, NODE } from './disordered-stream.js';

test('per-node rates stay within the true range whatever order, delay, bunching, loss or duplication the reports arrive in', () => {
  fc.assert(
    fc.property(disorder, (d) => {
      const tracker = new RateTracker();
      const events = disorderedStream(d, 60);
      const first = events[0]?.receivedAt ?? 0;
      for (const e of events) {
        tracker.apply(e);
        // The instance count is read from arrivals over up to two minutes: until then a bunch at the window's
        // edge may count one instance too many or too few; from then on every reading must be a true one.
        const age = e.receivedAt - first;
        if (age < 30_000) continue;
        const r = tracker.node(NODE);
        assert.ok(r);
        const settled = age >= 125_000;
        const min = (settled ? d.instances : d.instances - 1) * d.lo * 0.999 - 1;
        const max = (settled ? d.instances : d.instances + 1) * d.hi * 1.001 + 1;
        assert.ok(r.reads >= min && r.reads <= max, `${r.reads} reads/s at +${e.receivedAt - first} ms, true range [${min}, ${max}]`);
      }
    }),
    { numRuns: 300 },
  );
});
