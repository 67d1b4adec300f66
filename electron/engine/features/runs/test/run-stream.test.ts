import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { RunReport } from '../../../../contract/schemas/runs.js';
import { ClusterHistory } from '../../../facts/history/history.js';
import { InsideHistory, type InsideValues } from '../../../facts/ndbinfo/inside-history.js';
import { RunBook, type RunInput } from '../run-book.js';
import { RunStream, type RunStreamOptions } from '../run-stream.js';
import { runReport, type RunContext } from '../run-summary.js';

const NODES = [2, 3, 4];

/** Throughput shapes: steady, a ramp, never steady (the verdict then reads the seconds near the peak), with gaps. */
const throughput = fc.oneof(
  fc.array(fc.oneof(fc.constant(1000), fc.constant(1020), fc.constant(990)), { minLength: 3, maxLength: 60 }),
  fc.array(fc.oneof(fc.constant(100), fc.constant(5000), fc.constant(0), fc.constant(null), fc.integer({ min: 1, max: 9000 })), { minLength: 1, maxLength: 60 }),
);
const figure = fc.oneof(fc.constant(null), fc.double({ min: 0, max: 100, noNaN: true }));
const inside = fc.record({ ldm: figure, tc: figure, send: figure, sendBuffer: figure, overloaded: fc.oneof(fc.constant(0), fc.constant(1), fc.constant(null)), redoFill: figure, ioLag: figure, diskHit: fc.oneof(fc.constant(null), fc.double({ min: 0, max: 1, noNaN: true })) });

interface Case {
  values: Array<number | null>;
  perNode: Array<Array<InsideValues | null>>;
  /** Run start and stop and phase starts, as tick indices, each at the tick's time or half a tick after. */
  start: number;
  phases: number[];
  stop: number | null;
  offset: 0 | 500;
  withSql: boolean;
}

const cases = throughput.chain((values) =>
  fc.record({
    values: fc.constant(values),
    perNode: fc.array(fc.array(fc.oneof(fc.constant(null), inside), { minLength: NODES.length, maxLength: NODES.length }), { minLength: values.length, maxLength: values.length }),
    start: fc.nat(values.length - 1),
    phases: fc.array(fc.nat(values.length - 1), { maxLength: 4 }),
    stop: fc.oneof(fc.constant(null), fc.nat(values.length - 1)),
    offset: fc.constantFrom(0 as const, 500 as const),
    withSql: fc.boolean(),
  }),
) as fc.Arbitrary<Case>;

/** Feeds a case's ticks and marks (a mark at a tick's time after that tick, the order a replay may see) to both sources. */
function play(c: Case, options: RunStreamOptions = {}): { history: RunReport; streamed: RunReport; stream: RunStream } {
  const tickAt = (i: number): number => 1000 * (i + 1);
  const book = new RunBook();
  const history = new ClusterHistory(600);
  const insideHistory = new InsideHistory(600);
  const stream = new RunStream((t) => book.covering(t), () => insideHistory.knownNodeIds().length > 0, 'c1', options);
  const marks: RunInput[] = [{ kind: 'run', t: tickAt(c.start) + c.offset, op: 'start', runId: 'r', name: 'r', tags: {}, phase: 'first' }];
  [...c.phases].sort((a, b) => a - b).filter((p) => p >= c.start).forEach((p, i) => marks.push({ kind: 'run', t: tickAt(p) + c.offset, op: 'phase', runId: 'r', name: `p${i}` }));
  if (c.stop !== null) marks.push({ kind: 'run', t: Math.max(tickAt(c.stop) + c.offset, marks.at(-1)?.t ?? 0), op: 'stop', runId: 'r' });
  c.values.forEach((v, i) => {
    const at = tickAt(i);
    const nodes = new Map(NODES.map((id, n) => [id, { transactions: v === null ? null : v * (n + 1) * 0.17 }]));
    const insideNow = new Map<number, InsideValues>();
    if (c.withSql) NODES.forEach((id, n) => c.perNode[i]?.[n] && insideNow.set(id, c.perNode[i]?.[n] as InsideValues));
    const cluster = { transactions: v, reads: v === null ? null : v * 2.3, writes: 7, scans: null, aborts: v === null ? null : v / 97 };
    history.record(at, cluster, nodes);
    insideHistory.record(at, insideNow);
    stream.tick({ at, cluster, transactions: new Map([...nodes].map(([id, x]) => [id, x.transactions])), inside: insideNow });
    while (marks[0] && marks[0].t <= at) book.apply(marks.shift() as RunInput);
  });
  for (const m of marks) book.apply(m);
  const run = book.list()[0];
  assert.ok(run);
  const ctx: RunContext = {
    history,
    inside: (from, to) => insideHistory.window(from, to),
    events: () => [],
    alerts: () => [],
    restarts: () => [],
    dataNodes: NODES.map((nodeId) => ({ nodeId, nodeGroup: 0 })),
    source: 'test',
    now: tickAt(c.values.length),
  };
  const streamed = runReport(run, { ...ctx, figures: stream.source(run) });
  // What the stream could not hold is picked by a second play, as a report does.
  const picks = stream.unresolved([run]);
  if (picks.size > 0) return play(c, { ...options, picks });
  return { history: runReport(run, ctx), streamed, stream };
}

test('a run summarised as its ticks stream by says what the summary from the whole history says: figures, shares, every verdict', () => {
  fc.assert(
    fc.property(cases, (c) => {
      const { history, streamed } = play(c);
      assert.deepEqual(streamed, history);
      // Holding at most two ticks near the peak: a stretch that never held steady is picked by a second play.
      assert.deepEqual(play(c, { nearPeakHeld: 2 }).streamed, history);
    }),
    { numRuns: 400, seed: 24 },
  );
});

test('what a streamed summary holds per tick does not grow with the run: the cluster series only, never every node', () => {
  const held = (seconds: number) => {
    const values = Array.from({ length: seconds }, () => 1000);
    const perNode = values.map(() => NODES.map(() => ({ ldm: 50, tc: 20, send: 10, sendBuffer: 5, overloaded: 0, redoFill: 10, ioLag: 0, diskHit: 0.99 })));
    return play({ values, perNode, start: 0, phases: [seconds / 2], stop: seconds - 1, offset: 0, withSql: true }).stream.retained();
  };
  const short = held(60);
  const long = held(600);
  assert.equal(long.seriesTicks, 600, "the report's own series: one entry per tick");
  assert.equal(long.heldTicks, short.heldTicks, `ticks of every node's figures held: ${short.heldTicks} over 60 s, ${long.heldTicks} over 600 s`);
  assert.ok(long.heldTicks <= 9, `at most three ticks (a steady window) for the run and for each of its two phases: ${long.heldTicks}`);
});

test('a run that never holds steady: what it holds stays bounded too (past the bound, a second play picks its seconds near the peak)', () => {
  const held = (seconds: number) => {
    // Every other second unknown, so three seconds running never hold within the band.
    const values = Array.from({ length: seconds }, (_, i) => (i % 2 === 0 ? 1000 + (i % 7) : null));
    const perNode = values.map((_, i) => NODES.map((_, n) => ({ ldm: 40 + ((i * (n + 3)) % 50), tc: 20, send: 10, sendBuffer: 5, overloaded: 0, redoFill: 10, ioLag: 0, diskHit: 0.99 })));
    const c: Case = { values, perNode, start: 0, phases: [], stop: seconds - 1, offset: 0, withSql: true };
    const { history, streamed, stream } = play(c, { nearPeakHeld: 20 });
    assert.deepEqual(streamed, history);
    assert.match(streamed.summary.bottleneck.evidence[0] ?? '', /never held within ±10 %/);
    return stream.retained().heldTicks;
  };
  const short = held(30);
  const long = held(600);
  assert.ok(long <= 2 * (3 + 20), `ticks of every node's figures held over 600 s: ${long} (over 30 s: ${short})`);
});
