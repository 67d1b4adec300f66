import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EventView } from '../../../../contract/schemas/events.js';
import type { Run, RunReport } from '../../../../contract/schemas/runs.js';
import { ClusterHistory, type MetricValues } from '../../../facts/history/history.js';
import { compareRuns } from '../compare.js';
import { formatReports } from '../report-format.js';
import { RunBook } from '../run-book.js';
import { runReport, steadyAfter } from '../run-summary.js';
import { figureStats, percentile } from '../stats.js';

const close = (actual: number | null | undefined, expected: number, what: string): void => {
  assert.ok(actual !== null && actual !== undefined && Math.abs(actual - expected) < 1e-6, `${what}: ${String(actual)} ≠ ${expected}`);
};

/** One sample a second from t = 1000 ms: cluster figures, and node 2 carrying 60 %, node 3 40 % of the transactions. */
function historyOf(transactions: number[], aborts: number[] = transactions.map(() => 0)): ClusterHistory {
  const h = new ClusterHistory(600);
  transactions.forEach((tx, i) => {
    const cluster: MetricValues = { transactions: tx, reads: tx * 2, writes: tx / 2, scans: 1, aborts: aborts[i] ?? 0 };
    h.record(1000 * (i + 1), cluster, new Map([[2, { transactions: tx * 0.6 }], [3, { transactions: tx * 0.4 }]]));
  });
  return h;
}

function reportOf(run: Run, h: ClusterHistory, events: EventView[] = []): RunReport {
  return runReport(run, {
    history: h,
    // No SQL source: the verdict is unknown (bottleneck.test.ts reads one from inside figures).
    inside: () => ({ at: [], nodes: new Map() }),
    events: (from, to) => events.filter((e) => e.at >= from && e.at <= to),
    alerts: () => [],
    restarts: () => [],
    dataNodes: [
      { nodeId: 2, nodeGroup: 0 },
      { nodeId: 3, nodeGroup: 0 },
    ],
    source: 'test',
    now: 99_000,
  });
}

test('percentiles interpolate between the closest ranks, as numpy does', () => {
  const sorted = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
  close(percentile(sorted, 0.05), 14.5, 'p5'); // h = 9 × 0.05 = 0.45 → 10 + 0.45 × 10
  close(percentile(sorted, 0.95), 95.5, 'p95'); // h = 8.55 → 90 + 0.55 × 10
  close(percentile(sorted, 0.5), 55, 'median');
  assert.equal(figureStats([null, null]), null);
  assert.deepEqual(figureStats([5, null, 1, 3]), { mean: 3, median: 3, p5: 1.2, p95: 4.8, min: 1, max: 5, samples: 3 });
});

test('a run summary: whole run and phases from every one-second sample, per-node shares, the slowest node', () => {
  const h = historyOf([10, 20, 30, 40, 50, 60, 70, 80, 90, 100], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  const run: Run = {
    id: 'run-1',
    name: 'sweep',
    tags: { nodes: '2' },
    start: 1000,
    end: 10_000,
    phases: [
      { name: 'low', start: 1000, end: 5000 },
      { name: 'high', start: 5000, end: 10_000 },
    ],
  };
  const r = reportOf(run, h);
  const tx = r.summary.transactions;
  close(tx?.mean, 55, 'mean');
  close(tx?.median, 55, 'median');
  close(tx?.p5, 14.5, 'p5');
  close(tx?.p95, 95.5, 'p95');
  assert.equal(tx?.min, 10);
  assert.equal(tx?.max, 100);
  assert.equal(tx?.samples, 10);
  close(r.summary.reads?.mean, 110, 'reads mean');
  close(r.summary.abortRatio, 55 / 550, 'abort ratio');
  assert.equal(r.summary.durationMs, 9000);
  // Phases are half-open: the sample at 5000 belongs to "high" only.
  const [low, high] = r.phases;
  close(low?.summary.transactions?.mean, 25, 'low mean'); // 10, 20, 30, 40
  close(low?.summary.transactions?.p95, 38.5, 'low p95'); // h = 2.85 → 30 + 0.85 × 10
  close(high?.summary.transactions?.mean, 75, 'high mean'); // 50 … 100
  close(high?.summary.transactions?.p5, 52.5, 'high p5'); // h = 0.25
  assert.equal(high?.summary.transactions?.samples, 6);
  assert.equal(r.summary.perNode.length, 2);
  close(r.summary.perNode[0]?.share, 0.6, 'node 2 share');
  close(r.summary.perNode[1]?.meanTransactions, 22, 'node 3 mean');
  assert.equal(r.summary.imbalance?.slowestNodeId, 3);
  close(r.summary.imbalance?.ratioToMean, 22 / 27.5, 'imbalance');
  assert.equal(r.dataNodes, 2);
  assert.deepEqual(r.series.offsetMs, [0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000]);
});

test('time to steady state: first of five samples running within 10 % of the median', () => {
  // median of [0, 50, 95, 100, 105, 98, 102, 100] is 99; from 95 on five samples stay within 89.1..108.9.
  assert.equal(steadyAfter([0, 1000, 2000, 3000, 4000, 5000, 6000, 7000], [0, 50, 95, 100, 105, 98, 102, 100], 0), 2000);
  assert.equal(steadyAfter([0, 1000, 2000], [10, 100, 1000], 0), null);
});

test('warnings and worse that happened during the run are listed; earlier and INFO ones are not', () => {
  const ev = (at: number, severity: EventView['severity'], name: string): EventView => ({ seq: at, at, typeId: 1, name, category: 'CHECKPOINT', severity, sourceNodeId: 2, subjectNodeId: null, text: name, fields: {} });
  const r = reportOf({ id: 'r', name: 'r', tags: {}, start: 2000, end: 5000, phases: [] }, historyOf([1, 2, 3, 4, 5]), [ev(1000, 'WARNING', 'before'), ev(3000, 'INFO', 'info'), ev(4000, 'WARNING', 'GCP stall')]);
  assert.deepEqual(r.summary.events.map((e) => e.name), ['GCP stall']);
});

function constantRun(id: string, values: number[], tags: Record<string, string>): RunReport {
  return reportOf({ id, name: id, tags, start: 1000, end: values.length * 1000, phases: [{ name: 'measure', start: 1000, end: values.length * 1000 }] }, historyOf(values));
}

test('comparison: B/A of the means with p5 and p95 ratios as the spread; scale-out against the smallest run', () => {
  const a = constantRun('A', [80, 90, 100, 110, 120], { nodes: '4' }); // mean 100, p5 82, p95 118
  const b = constantRun('B', [60, 70, 75, 80, 90], { nodes: '4' }); // mean 75, p5 62, p95 88
  const c = constantRun('C', [190, 200, 210], { nodes: '8' }); // mean 200
  const cmp = compareRuns([a, b, c], 'transactions');
  assert.ok(cmp);
  const tx = cmp.rows[0]?.ratios.find((x) => x.figure === 'transactions');
  close(tx?.ratio, 0.75, 'ratio');
  close(tx?.low, 88 / 118, 'low');
  close(tx?.high, 62 / 82, 'high');
  assert.deepEqual(cmp.scaleOut.map((p) => [p.name, p.dataNodes]), [['A', 4], ['B', 4], ['C', 8]]);
  close(cmp.scaleOut[2]?.linear, 200, 'linear at 8 nodes');
  close(cmp.scaleOut[2]?.efficiency, 1, 'C efficiency');
  close(cmp.scaleOut[1]?.efficiency, 0.75, 'B efficiency');
  // Aligned at a phase, the ratios come from that phase's figures (here the same samples).
  close(compareRuns([a, b], 'transactions', 'measure')?.rows[0]?.ratios[0]?.ratio, 0.75, 'phase ratio');
  assert.equal(compareRuns([a], 'transactions'), null);
  const md = formatReports({ runs: [a, b], comparison: compareRuns([a, b], 'transactions') }, 'md');
  assert.match(md, /\| B \| −25 % \(−25 %\.\.−24 %\)/);
  // Each run and phase names its bottleneck; without an SQL source, unknown, saying what would tell.
  assert.match(md, /^Bottleneck \(unknown\): No figures from inside the data nodes: with an SQL node's ndbinfo \(--sql mysql:\/\/USER@HOST\)/m);
  assert.match(md, /^- measure: bottleneck unknown: No figures from inside/m);
});

test('the run book: one run at a time, phases end where the next begins, marks after the stop are refused', () => {
  const book = new RunBook();
  book.apply({ kind: 'run', t: 100, op: 'start', runId: 'r1', name: 'x', tags: {}, phase: 'warm-up' });
  assert.equal(book.check({ kind: 'run', t: 150, op: 'start', runId: 'r2', name: 'y', tags: {} })?.code, 'CONFLICT');
  book.apply({ kind: 'run', t: 200, op: 'phase', runId: 'r1', name: 'load' });
  book.apply({ kind: 'run', t: 300, op: 'stop', runId: 'r1' });
  assert.deepEqual(book.list()[0], { id: 'r1', name: 'x', tags: {}, start: 100, end: 300, phases: [{ name: 'warm-up', start: 100, end: 200 }, { name: 'load', start: 200, end: 300 }] });
  assert.equal(book.check({ kind: 'run', t: 400, op: 'phase', runId: 'r1', name: 'late' })?.code, 'CONFLICT');
  assert.equal(book.check({ kind: 'run', t: 400, op: 'stop', runId: 'nope' })?.code, 'NOT_FOUND');
});

/** A run of `warm` warm-up samples then `measure` samples, one a second; named `name`. */
function warmedRun(id: string, name: string, warm: number[], measure: number[]): RunReport {
  const end = (warm.length + measure.length) * 1000;
  const phases = [
    { name: 'warm-up', start: 1000, end: (warm.length + 1) * 1000 },
    { name: 'measure', start: (warm.length + 1) * 1000, end },
  ];
  return reportOf({ id, name, tags: {}, start: 1000, end, phases }, historyOf([...warm, ...measure]));
}

test('comparison by default: the first phase the runs share after warm-up, not their start', () => {
  // A warms up slowly (10 → 100), B is ready at once: whole runs give B/A ≈ +40 %, the measured phases −27 %.
  const a = warmedRun('A', 'compress=off', [10, 20, 40, 60, 80], [100, 100, 100, 100, 100]);
  const b = warmedRun('B', 'compress=on', [73, 73, 73, 73, 73], [73, 73, 73, 73, 73]);
  const cmp = compareRuns([a, b], 'transactions');
  assert.equal(cmp?.align, 'measure');
  close(cmp?.rows[0]?.ratios.find((r) => r.figure === 'transactions')?.ratio, 0.73, 'measured B/A');
  // Asked for explicitly, the start still compares the whole runs.
  assert.equal(compareRuns([a, b], 'transactions', 'start')?.align, 'start');
  assert.ok((compareRuns([a, b], 'transactions', 'start')?.rows[0]?.ratios[0]?.ratio ?? 0) > 1);
  // Runs without a shared phase past warm-up are aligned at their start.
  assert.equal(compareRuns([constantRun('C', [1, 2], {}), reportOf({ id: 'D', name: 'D', tags: {}, start: 1000, end: 2000, phases: [] }, historyOf([1, 2]))], 'transactions')?.align, 'start');
});

test('comparison: a name repeated among the runs gets a suffix in the table and scale-out', () => {
  const runs = [warmedRun('A', 'compress=off', [1], [100]), warmedRun('B', 'compress=on', [1], [73]), warmedRun('C', 'compress=off', [1], [99])];
  const cmp = compareRuns(runs, 'transactions');
  assert.deepEqual(cmp?.rows.map((r) => r.name), ['compress=on', 'compress=off #2']);
  assert.deepEqual(cmp?.scaleOut.map((p) => p.name), ['compress=off', 'compress=on', 'compress=off #2']);
  const running = { ...runs[0]!, end: null };
  assert.match(formatReports({ runs: [running, runs[1]!], comparison: compareRuns([running, runs[1]!], 'transactions') }, 'md'), /Baseline compress=off is still running/);
});
