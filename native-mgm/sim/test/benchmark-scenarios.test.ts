import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunMarker } from '../index.js';
import { FLEXASYNCH_PER_NODE } from '../scenarios/flexasynch.js';
import { collect, listen, type Rec } from './event-stream.js';
import { withSim } from './raw-socket.js';

const TRANS = 35;

/** A marker that writes down what the driver marked, with the sim time it did so. */
function recordingMarker(): { marker: RunMarker; marks: string[]; stopped: () => boolean } {
  const marks: string[] = [];
  const marker: RunMarker = {
    start: async (name, tags, phase) => void marks.push(`start ${name} ${JSON.stringify(tags)} ${phase ?? ''}`.trim()),
    phase: async (name) => void marks.push(`phase ${name}`),
    stop: async () => void marks.push('stop'),
  };
  return { marker, marks, stopped: () => marks.includes('stop') };
}

/** Counters arrive as printed unsigned words: a negative count would read as about 4 billion (the old benchmark bug). */
function assertSaneCounts(records: readonly Rec[]): void {
  const trans = records.filter((r) => r.type === TRANS);
  assert.ok(trans.length > 0);
  for (const r of trans) {
    for (const [field, value] of Object.entries(r.fields)) assert.match(value, /^\d+$/, `${field}=${value}`);
    assert.ok(Number(r.fields.trans_count) < 2 ** 31 && Number(r.fields.read_count) < 2 ** 31, JSON.stringify(r.fields));
    assert.equal(Number(r.fields.commit_count) + Number(r.fields.abort_count), Number(r.fields.trans_count));
  }
}

for (const [scenario, expected] of [
  ['flexasynch', ['start flexAsynch #1 {"benchmark":"flexAsynch","nodes":"2"} insert', 'phase read', 'phase update', 'phase delete', 'stop']],
  ['collapse', ['start concurrency sweep {"ndb_cache_check_time":"1000","nodes":"2"} threads=16', 'phase threads=32', 'phase threads=64', 'stop']],
  ['compression-ab', ['start compress=off {"compress":"off","nodes":"2"} warm-up', 'phase measure', 'stop']],
] as const) {
  test(`${scenario}: the driver marks its run and phases, and every statistics count across them is a sane unsigned number`, async () => {
    await withSim({ speed: 50, scenario, dataNodes: 2, waitForMarker: true }, async (sim, open) => {
      const l = await open();
      await listen(l, 'STATISTICS=8');
      const rec = recordingMarker();
      sim.marks.attach(rec.marker);
      // Until the run is over and every instance has reported once more.
      let after = 0;
      const records = await collect(l, (rs) => rec.stopped() && (after ||= rs.length) > 0 && rs.length >= after + 16, 60_000);
      sim.marks.attach(null);
      assert.deepEqual(rec.marks.slice(0, expected.length), [...expected]);
      assertSaneCounts(records);
      if (scenario === 'flexasynch') {
        // The busiest report of the read phase: 230k reads/s per node over 5 s, shared by its 4 TC instances.
        const perReport = (FLEXASYNCH_PER_NODE.read * 5) / 4;
        const peak = Math.max(...records.filter((r) => r.type === TRANS).map((r) => Number(r.fields.read_count)));
        assert.ok(peak > perReport * 0.9 && peak < perReport * 1.1, `read_count peak ${peak} against ${perReport}`);
      }
    });
  });
}
