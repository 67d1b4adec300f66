import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterEvent } from '../../../../../native-mgm/index.js';
import { concerns } from '../incident-signs.js';
import { Story } from '../story.js';
import { textRecord, wire } from './wire-events.js';

const SPAN_MS = 90_000;

/** Story events of every kind of subject: about a named node, a reporter's own, the cluster's (arbitration, a GCP stop text). */
const RECORDS: ReadonlyArray<(src: number, node: number) => string> = [
  (src, node) => `log event reply\ntype=28\ntime=0\nsource_nodeid=${src}\nfailed_node=${node}\nfailure_state=0\n`,
  (src, node) => `log event reply\ntype=44\ntime=0\nsource_nodeid=${src}\nnode=${node}\ncount=3\n`,
  (src) => `log event reply\ntype=30\ntime=0\nsource_nodeid=${src}\ncode=41\narbit_node=5\nticket_0=1\nticket_1=2\n`,
  (src) => `log event reply\ntype=59\ntime=0\nsource_nodeid=${src}\naction=0\nsignum=0\nerror=2341\nsphase=0\nextra=0\n`,
  (src) => textRecord(46, src, 'GCP Monitor: GCP_COMMIT lag 20 seconds (no max lag)'),
  (src) => textRecord(49, src, 'nothing about a stall'),
];

/** mulberry32: the same events on every run. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let r = Math.imul(s ^ (s >>> 15), 1 | s);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 2 ** 32;
  };
}

test('the story gathers by node exactly what a scan of its last 90 s does, order and all, through a storm of 60,000 events', () => {
  const rnd = seeded(7);
  const pick = (n: number): number => 1 + Math.floor(rnd() * n);
  const story = new Story();
  // What the room kept before lanes: every event in arrival order, the oldest dropped while older than the span.
  const scanned: ClusterEvent[] = [];
  let t = 1_700_000_000_000;
  for (let i = 0; i < 60_000; i++) {
    // A few milliseconds apart (~330 s in all, the span's start index moved and compacted several times), rarely a step back (a clock that moved).
    t += rnd() < 0.0002 ? -5_000 : Math.floor(rnd() * 12);
    const e = wire(t, (RECORDS[Math.floor(rnd() * RECORDS.length)] as (s: number, n: number) => string)(pick(144), pick(144)));
    story.add(e, t - SPAN_MS);
    scanned.push(e);
    while ((scanned[0] as ClusterEvent).receivedAt < t - SPAN_MS) scanned.shift();
    if (i % 997 === 0) {
      const nodes = new Set(Array.from({ length: pick(72) }, () => pick(144)));
      // From any time in the span, or before it: what was dropped must not come back.
      const from = t - Math.floor(rnd() * (SPAN_MS + 10_000));
      const want = scanned.filter((x) => x.receivedAt >= from && concerns(x, nodes));
      assert.deepEqual(story.about([...nodes, 'cluster'], from).events, want, `nodes ${[...nodes].join(',')} from ${from}`);
    }
  }
  assert.ok(scanned.length < 30_000, 'events older than the span were dropped');
  assert.deepEqual(story.about([1, 2, 3, 'cluster'], 0).events, scanned.filter((x) => concerns(x, new Set([1, 2, 3]))), 'nothing older than the span is left in any lane');
});

test('after a storm, the story lets its events go with time though no newer one comes', () => {
  const story = new Story();
  const t = 1_700_000_000_000;
  const nodes = Array.from({ length: 144 }, (_, i) => i + 1);
  for (let i = 0; i < 5_000; i++) story.add(wire(t + i, (RECORDS[0] as (s: number, n: number) => string)(1 + (i % 144), 1 + ((i * 7) % 144))), t - SPAN_MS);
  assert.equal(story.about([...nodes, 'cluster'], 0).events.length, 5_000);
  story.forgetBefore(t + 2_500);
  const left = story.about([...nodes, 'cluster'], 0).events;
  assert.equal(left.length, 2_500);
  assert.ok(left.every((e) => e.receivedAt >= t + 2_500));
  story.forgetBefore(t + 5_000 + SPAN_MS);
  assert.deepEqual(story.about([...nodes, 'cluster'], 0).events, [], 'a quiet span later nothing of the storm is held');
});
