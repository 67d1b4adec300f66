import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bottleneckOf, insideFiguresOf, nodeRanges, steadyIndices } from '../bottleneck.js';
import { InsideHistory, kindBusy, type InsideValues } from '../../../facts/ndbinfo/inside-history.js';

/** `seconds` one-second samples from t = 1000 of the same figures on every node given. */
function window(seconds: number, perNode: Record<number, InsideValues>) {
  const h = new InsideHistory(600);
  const at: number[] = [];
  for (let i = 0; i < seconds; i++) {
    at.push(1000 * (i + 1));
    h.record(1000 * (i + 1), new Map(Object.entries(perNode).map(([id, v]) => [Number(id), v])));
  }
  return { at, inside: h.window(0, 1e9) };
}

const flat = (n: number, v = 1000): number[] => Array.from({ length: n }, () => v);
const CLEAR = { sendBuffer: 5, overloaded: 0, redoFill: 10, ioLag: 0, diskHit: 0.99 };

test('node ids read as ranges; steady seconds leave ramps and falls out', () => {
  assert.equal(nodeRanges([9, 2, 3, 4, 5, 6, 7, 8, 12, 14, 15]), '2–9, 12, 14, 15');
  assert.deepEqual(steadyIndices([100, 500, 1000, 1000, 1000, 1000, 100, 100, 100]), [3, 4, 7]);
  assert.deepEqual(steadyIndices([null, 1000, 1000, 1000]), [2]);
});

test("a thread kind's share: query threads count as LDM, rep as main; unnamed threads not at all", () => {
  const t = (name: string | null, busy: number) => ({ thrNo: 0, name, busy });
  assert.deepEqual(kindBusy([t('ldm', 90), t('query', 70), t('main', 10), t('rep', 0), t('tc', 20), t(null, 100), t('io', 100)]), { ldm: 80, tc: 20, main: 5 });
});

test('saturated LDM threads on the nodes that carry the load: ldm-cpu, naming them', () => {
  const hot = { ldm: 96, tc: 40, recv: 20, send: 15, main: 3, ...CLEAR };
  const { at, inside } = window(20, { 2: hot, 3: hot, 4: hot, 5: { ...hot, ldm: 94 }, 6: { ...hot, ldm: 30 } });
  const b = bottleneckOf(at, flat(20), inside);
  assert.equal(b.kind, 'ldm-cpu');
  assert.equal(b.text, 'LDM threads on nodes 2–5 averaged 96 % busy: the data nodes are CPU-bound in LDM');
  assert.equal(b.evidence[0], 'steady seconds: 18 of 20');
  assert.ok(b.evidence.includes('TC threads: 40 % busy on average, most on node 2 (40 %)'), b.evidence.join('\n'));
});

test('the TC threads saturated and LDM not: tc-cpu', () => {
  const { at, inside } = window(10, { 2: { ldm: 50, tc: 92, recv: 20, send: 10, main: 2, ...CLEAR } });
  assert.equal(bottleneckOf(at, flat(10), inside).kind, 'tc-cpu');
});

test('every thread kind idle along while throughput held: outside the data nodes', () => {
  const idle = { ldm: 34, tc: 9, recv: 12, send: 5, main: 2, ...CLEAR };
  const { at, inside } = window(10, { 2: idle, 3: { ...idle, ldm: 36 } });
  const b = bottleneckOf(at, flat(10), inside);
  assert.equal(b.kind, 'outside-data-nodes');
  assert.equal(b.text, 'Data-node threads stayed under 40 % busy while throughput was flat (busiest: LDM on node 3, 36 %): the limit is outside the data nodes (SQL/API nodes, clients or network)');
});

test('hard limits come before the CPU: a full redo log, then overloaded transporters; a missing disk page buffer then', () => {
  const busy = { ldm: 90, tc: 30, recv: 20, send: 10, main: 2 };
  let w = window(10, { 2: { ...busy, ...CLEAR, redoFill: 93, ioLag: 2 }, 3: { ...busy, ...CLEAR } });
  assert.equal(bottleneckOf(w.at, flat(10), w.inside).text, "The redo log on node 2 was up to 93 % full with writes slowed for I/O lag: writes wait on the redo log's disk");
  w = window(10, { 2: { ...busy, ...CLEAR, overloaded: 1 }, 4: { ...busy, ...CLEAR, sendBuffer: 85 } });
  const b = bottleneckOf(w.at, flat(10), w.inside);
  assert.equal(b.kind, 'send-buffer');
  assert.match(b.text, /^Transporters of nodes 2, 4 were overloaded or slowed down 100 % of the steady time/);
  w = window(10, { 2: { ldm: 40, tc: 10, recv: 10, send: 5, main: 2, ...CLEAR, diskHit: 0.6 } });
  assert.equal(bottleneckOf(w.at, flat(10), w.inside).kind, 'disk');
});

test('busy but short of saturation: unknown, saying how busy; without the SQL source: unknown, saying what would tell', () => {
  const { at, inside } = window(10, { 2: { ldm: 72, tc: 30, recv: 20, send: 10, main: 2, ...CLEAR } });
  const b = bottleneckOf(at, flat(10), inside);
  assert.equal(b.kind, 'unknown');
  assert.match(b.text, /busiest, LDM threads on node 2, averaged 72 % busy/);
  const none = bottleneckOf(at, flat(10), new InsideHistory(10).window(0, 1e9));
  assert.equal(none.kind, 'unknown');
  assert.match(none.text, /--sql mysql:\/\/USER@HOST/);
  assert.deepEqual(none.evidence, []);
});

test('a stretch that never held steady is read near its peak and says so', () => {
  const { at, inside } = window(4, { 2: { ldm: 95, ...CLEAR } });
  const b = bottleneckOf(at, [100, 400, 1700, 2000], inside);
  assert.equal(b.kind, 'ldm-cpu');
  assert.equal(b.evidence[0], 'throughput never held within ±10 % for 3 s: read from the 2 of 4 seconds within 20 % of its peak');
  assert.deepEqual(insideFiguresOf(inside).slice(0, 1), ['LDM threads: 95 % busy on average, most on node 2 (95 %)']);
});
