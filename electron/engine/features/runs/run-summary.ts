import type { Alert, EventView } from '../../../contract/schemas/events.js';
import type { Incident } from '../../../contract/schemas/incidents.js';
import { type Bottleneck, type PhaseSummary, type Run, type RunFigure, type RunNodeRestart, type RunReport, type RunSummary } from '../../../contract/schemas/runs.js';
import { RUN_FIGURES } from '../../../contract/page-safe/vocabulary.js';
import type { ClusterHistory } from '../../facts/history/history.js';
import type { InsideWindow } from '../../facts/ndbinfo/inside-history.js';
import { bottleneckOf } from './bottleneck.js';
import { figureStats } from './stats.js';

/** A run's cluster figures at each tick of a stretch. */
export interface RunColumns {
  at: number[];
  cluster: Record<RunFigure, Array<number | null>>;
}

/**
 * Where a run's figures come from. By default the history (and the SQL source's inside history), which must then
 * hold the whole run; a report's replay gives a `RunSource` that summarised the run as it streamed by
 * (`run-stream.ts`), so it keeps the cluster's series and not every node's.
 */
export interface RunSource {
  columns(from: number, to: number): RunColumns;
  /** Each data node's mean transactions/s over [from, to] (null: never known). */
  nodeMeans(from: number, to: number, nodeIds: readonly number[]): Map<number, number | null>;
  /** The verdict over the whole run (`phase` null) or one of its phases, [from, to] at its ticks `at`. */
  bottleneck(phase: number | null, from: number, to: number, at: readonly number[], throughput: readonly (number | null)[]): Bottleneck;
}

/** The cluster's full-resolution history, what a live run's figures are read from. */
interface HistoryFigures {
  history: ClusterHistory;
  /** What the SQL source showed of the data nodes in [from, to], at the history's ticks. */
  inside(from: number, to: number): InsideWindow;
  /** Overrides `history` and `inside` (a report's replay). */
  figures?: RunSource | undefined;
}

/** What a run's summary is computed from: its figures (the history, or a `RunSource`), its log and its alerts. */
export type RunContext = (HistoryFigures | { figures: RunSource }) & {
  events(from: number, to: number): EventView[];
  alerts(from: number, to: number): Alert[];
  /** Data nodes out at some moment of [from, to]. */
  restarts(from: number, to: number): RunNodeRestart[];
  /** The data nodes and their node groups, as known now. */
  dataNodes: ReadonlyArray<{ nodeId: number; nodeGroup: number | null }>;
  source: string;
  /** The end of a run still running. */
  now: number;
};

/** Throughput within ±10 % of the phase's median for this many samples running counts as steady. */
const STEADY_BAND = 0.1;
const STEADY_SAMPLES = 5;
const MAX_EVENTS = 200;
const WARNING_OR_WORSE = new Set(['WARNING', 'ERROR', 'CRITICAL', 'ALERT']);
const NODE_GROUP_ALERTS = new Set(['node-group-degraded', 'node-group-offline']);

/** The default source: the history's ticks and the inside history's window over the run. */
function historySource(ctx: HistoryFigures, from: number, to: number): RunSource {
  let window: InsideWindow | null = null;
  return {
    columns: (a, b) => {
      const q = ctx.history.query({ fromMs: a, toMs: b, metrics: [...RUN_FIGURES] });
      const cluster = Object.fromEntries(RUN_FIGURES.map((f) => [f, [] as Array<number | null>])) as RunColumns['cluster'];
      for (const s of q.series) cluster[s.metric as RunFigure] = s.values;
      return { at: q.at, cluster };
    },
    nodeMeans: (a, b, nodeIds) => {
      const q = ctx.history.query({ fromMs: a, toMs: b, metrics: ['transactions'], nodeIds: [...nodeIds] });
      return new Map(q.series.filter((s) => s.nodeId !== null).map((s) => [s.nodeId as number, figureStats(s.values)?.mean ?? null]));
    },
    // One window over the whole run serves every phase: the verdict reads only the times it is given.
    bottleneck: (_phase, _a, _b, at, throughput) => bottleneckOf(at, throughput, (window ??= ctx.inside(from, to))),
  };
}

/** Phases are half-open, [start, end), so a sample on a boundary counts once; the last one keeps the run's end. */
function slice(c: RunColumns, from: number, to: number, inclusive: boolean): RunColumns {
  const keep = c.at.map((t) => t >= from && (t < to || (inclusive && t === to)));
  const pick = <T>(values: T[]): T[] => values.filter((_, i) => keep[i]);
  return { at: pick(c.at), cluster: Object.fromEntries(RUN_FIGURES.map((f) => [f, pick(c.cluster[f])])) as RunColumns['cluster'] };
}

function figures(c: RunColumns, bottleneck: Bottleneck): Omit<PhaseSummary, 'durationMs' | 'steadyAfterMs'> {
  const stats = Object.fromEntries(RUN_FIGURES.map((f) => [f, figureStats(c.cluster[f])])) as Record<RunFigure, ReturnType<typeof figureStats>>;
  let aborts = 0;
  let transactions = 0;
  c.cluster.transactions.forEach((t, i) => {
    const a = c.cluster.aborts[i];
    if (t === null || t === undefined || a === null || a === undefined) return;
    transactions += t;
    aborts += a;
  });
  return { ...stats, abortRatio: transactions > 0 ? aborts / transactions : null, bottleneck };
}

/** From the first sample until `STEADY_SAMPLES` samples running stay within the band around the median. */
export function steadyAfter(at: readonly number[], values: readonly (number | null)[], start: number): number | null {
  const median = figureStats(values)?.median;
  if (median === undefined || median <= 0) return null;
  const inBand = values.map((v) => v !== null && Math.abs(v - median) <= median * STEADY_BAND);
  for (let i = 0; i + STEADY_SAMPLES <= inBand.length; i++) {
    if (inBand.slice(i, i + STEADY_SAMPLES).every(Boolean)) return Math.max(0, (at[i] ?? start) - start);
  }
  return null;
}

function perNode(nodeMeans: ReadonlyMap<number, number | null>, ctx: RunContext): Pick<RunSummary, 'perNode' | 'imbalance'> {
  const means = ctx.dataNodes.map((n) => ({ ...n, mean: nodeMeans.get(n.nodeId) ?? null }));
  const total = means.reduce((s, n) => s + (n.mean ?? 0), 0);
  const shares = means.map((n) => ({ nodeId: n.nodeId, nodeGroup: n.nodeGroup, meanTransactions: n.mean, share: n.mean === null || total <= 0 ? null : n.mean / total }));
  const known = means.filter((n): n is typeof n & { mean: number } => n.mean !== null);
  const slowest = known.reduce<(typeof known)[number] | null>((low, n) => (low === null || n.mean < low.mean ? n : low), null);
  const average = known.length > 0 ? total / known.length : 0;
  return { perNode: shares, imbalance: slowest && average > 0 ? { slowestNodeId: slowest.nodeId, ratioToMean: slowest.mean / average } : null };
}

/** A run's summary, its phases' summaries and its overlay series, from full-resolution figures. */
export function runReport(run: Run, ctx: RunContext, dataNodesTag = dataNodesOf(run, ctx)): RunReport {
  const end = run.end ?? ctx.now;
  const source = ctx.figures ?? historySource(ctx as HistoryFigures, run.start, end);
  const all = source.columns(run.start, end);
  const alerts = ctx.alerts(run.start, end);
  const summary: RunSummary = {
    durationMs: end - run.start,
    ...figures(all, source.bottleneck(null, run.start, end, all.at, all.cluster.transactions)),
    ...perNode(source.nodeMeans(run.start, end, ctx.dataNodes.map((n) => n.nodeId)), ctx),
    nodeGroupTrouble: alerts.filter((a) => NODE_GROUP_ALERTS.has(a.kind)).map((a) => ({ message: a.message, at: a.at })),
    events: ctx
      .events(run.start, end)
      .filter((e) => e.severity !== null && WARNING_OR_WORSE.has(e.severity))
      .slice(-MAX_EVENTS)
      .map((e) => ({ at: e.at, name: e.name, severity: e.severity, sourceNodeId: e.sourceNodeId, text: e.text })),
    alerts: alerts.map((a) => ({ at: a.at, kind: a.kind, severity: a.severity, nodeId: a.nodeId, message: a.message })),
    restarts: ctx.restarts(run.start, end),
  };
  const phases = run.phases.map((p, i) => {
    const phaseEnd = p.end ?? end;
    const c = slice(all, p.start, phaseEnd, phaseEnd === end);
    const verdict = source.bottleneck(i, p.start, phaseEnd, c.at, c.cluster.transactions);
    return { ...p, summary: { durationMs: phaseEnd - p.start, ...figures(c, verdict), steadyAfterMs: steadyAfter(c.at, c.cluster.transactions, p.start) } };
  });
  return {
    ...run,
    tags: { ...run.tags },
    phases,
    source: ctx.source,
    dataNodes: dataNodesTag,
    summary,
    series: { offsetMs: all.at.map((t) => t - run.start), values: all.cluster },
  };
}

function dataNodesOf(run: Run, ctx: RunContext): number {
  const tagged = Number(run.tags.nodes ?? run.tags.dataNodes ?? NaN);
  return Number.isInteger(tagged) && tagged > 0 ? tagged : ctx.dataNodes.length;
}

/** The report with the incidents noticed during its run (newest first, as given), when there were any. */
export function withIncidents(report: RunReport, run: Run, incidents: readonly Incident[]): RunReport {
  const during = incidents.filter((i) => i.noticedAt >= run.start && (run.end === null || i.noticedAt <= run.end));
  return during.length > 0 ? { ...report, incidents: during } : report;
}
