import { z } from 'zod';
import { IncidentSchema } from './incidents.js';
import { BOTTLENECK_KINDS, RUN_FIGURES } from '../page-safe/vocabulary.js';
import { hasControl } from '../page-safe/outside-text.js';
import { AlertSchema, EventViewSchema } from './events.js';

/**
 * Benchmark runs: a named stretch of time with optional phases inside and free-form tags, marked from the UI,
 * the CLI or a benchmark script's HTTP calls. Runs are engine state (recorded and replayed like everything else);
 * their summaries are computed by the engine from full-resolution history.
 */
export const RunPhaseSchema = z.object({
  name: z.string(),
  start: z.number().int(),
  /** null while it is the current phase of a running run. */
  end: z.number().int().nullable(),
});

export const RunSchema = z.object({
  id: z.string(),
  name: z.string(),
  tags: z.record(z.string(), z.string()),
  start: z.number().int(),
  end: z.number().int().nullable(),
  phases: z.array(RunPhaseSchema),
  /** The recording it was imported from (its file name); absent for the session's own runs. */
  source: z.string().optional(),
});

export const RunFigureSchema = z.enum(RUN_FIGURES);

export const FigureStatsSchema = z.object({
  mean: z.number(),
  median: z.number(),
  p5: z.number(),
  p95: z.number(),
  min: z.number(),
  max: z.number(),
  /** One-second samples the figures come from (samples without data are left out). */
  samples: z.number().int().nonnegative(),
});

const FiguresSchema = z.object({
  transactions: FigureStatsSchema.nullable(),
  reads: FigureStatsSchema.nullable(),
  writes: FigureStatsSchema.nullable(),
  scans: FigureStatsSchema.nullable(),
  aborts: FigureStatsSchema.nullable(),
  /** Aborts per transaction over the stretch (sum over sum), null without transactions. */
  abortRatio: z.number().nullable(),
});

export const NodeShareSchema = z.object({
  nodeId: z.number().int(),
  nodeGroup: z.number().int().nullable(),
  /** Mean transactions/s of this node over the stretch. */
  meanTransactions: z.number().nullable(),
  /** Its share of the cluster's load, 0..1. */
  share: z.number().nullable(),
});

/**
 * What limited throughput over the steady part of a stretch, from the SQL source's figures of the data nodes
 * (threads, send buffers, redo, disk); `unknown` without them, and `text` then says what would tell.
 */
export const BottleneckSchema = z.object({
  kind: z.enum(BOTTLENECK_KINDS),
  /** One sentence naming the nodes, e.g. "LDM threads on nodes 2–9 averaged 96 % busy: …". */
  text: z.string(),
  /** The figures the verdict was read from, one short line each. */
  evidence: z.array(z.string()),
});

export const PhaseSummarySchema = FiguresSchema.extend({
  bottleneck: BottleneckSchema,
  durationMs: z.number().int().nonnegative(),
  /** From the phase's start until throughput stays within 10 % of the phase's median; null if it never did. */
  steadyAfterMs: z.number().int().nonnegative().nullable(),
});

/** A data node down and back during a run (a rolling restart's steps, a failure): when, how long, and by phase. */
export const RunNodeRestartSchema = z.object({
  nodeId: z.number().int(),
  /** When it left the up state; before the run's start when it was already down then. */
  downAt: z.number().int(),
  /** null: not back by the run's end. */
  upAt: z.number().int().nullable(),
  /** restart_info's phases of this restart in the operator's words, seconds each; null without the SQL source. */
  phases: z.array(z.object({ key: z.string(), words: z.string(), secs: z.number() })).nullable(),
});

export const RunSummarySchema = FiguresSchema.extend({
  bottleneck: BottleneckSchema,
  durationMs: z.number().int().nonnegative(),
  perNode: z.array(NodeShareSchema),
  /** The slowest data node against the mean of all: 0.8 = 20 % below. */
  imbalance: z.object({ slowestNodeId: z.number().int(), ratioToMean: z.number() }).nullable(),
  /** Node groups that were not healthy at some time during the run (from the alerts). */
  nodeGroupTrouble: z.array(z.object({ message: z.string(), at: z.number().int() })),
  /** Warnings and worse: cluster log events of severity WARNING or above, and every alert raised in the run. */
  events: z.array(EventViewSchema.pick({ at: true, name: true, severity: true, sourceNodeId: true, text: true })),
  alerts: z.array(AlertSchema.pick({ at: true, kind: true, severity: true, nodeId: true, message: true })),
  /** Every data node down at some moment of the run, in the order they went down. */
  restarts: z.array(RunNodeRestartSchema),
});

/** A run with everything derived from it: what `report` prints and the Runs view shows. */
export const RunReportSchema = RunSchema.extend({
  phases: z.array(RunPhaseSchema.extend({ summary: PhaseSummarySchema })),
  /** Where it comes from: the cluster's name, or the recording's file name. */
  source: z.string(),
  /** Data nodes: from the `nodes=N` tag, else the data nodes the cluster had. */
  dataNodes: z.number().int().nonnegative(),
  summary: RunSummarySchema,
  /** One-second samples of the cluster figures from the run's start, for overlays. */
  series: z.object({
    offsetMs: z.array(z.number().int()),
    values: z.record(RunFigureSchema, z.array(z.number().nullable())),
  }),
  /** Unplanned data node failures noticed during the run (`getIncidents`); absent when there were none. */
  incidents: z.array(IncidentSchema).optional(),
});

export const FigureRatioSchema = z.object({
  figure: RunFigureSchema,
  /** mean(B) / mean(A). */
  ratio: z.number().nullable(),
  /** The same ratio at the 5th and the 95th percentile of each run, low first. */
  low: z.number().nullable(),
  high: z.number().nullable(),
});

export const ComparisonSchema = z.object({
  baselineId: z.string(),
  align: z.string(),
  rows: z.array(z.object({ runId: z.string(), name: z.string(), ratios: z.array(FigureRatioSchema) })),
  /** Throughput against data nodes, with the perfect-linear line from the smallest run. */
  scaleOut: z.array(
    z.object({ runId: z.string(), name: z.string(), dataNodes: z.number().int(), mean: z.number().nullable(), linear: z.number().nullable(), efficiency: z.number().nullable() }),
  ),
});

export const RunReportQuerySchema = z.object({
  clusterId: z.string().optional(),
  /** Runs to report, in order (the first is the comparison's baseline); omit for every run. */
  runIds: z.array(z.string()).optional(),
  /** Align the overlay at the runs' start, or at the first phase of this name. */
  align: z.string().optional(),
  figure: RunFigureSchema.default('transactions'),
});

export const RunReportsSchema = z.object({ runs: z.array(RunReportSchema), comparison: ComparisonSchema.nullable() });

/**
 * A name a script or a viewer gives (run, phase, tag): one line of plain text. Outputs are safe whatever a name
 * holds (outside-text.ts), but a control character in a name is never meant, so it is refused where it comes in.
 */
const markText = (max: number) => z.string().max(max).refine((s) => !hasControl(s), 'holds a control character (ESC, BEL, a C1 control, a bidi control, a line break or tab): names are one line of plain text');

export const StartRunSchema = z.object({
  clusterId: z.string().optional(),
  name: markText(200).min(1),
  tags: z.record(markText(100), markText(500)).optional(),
  /** A first phase to open with the run. */
  phase: markText(200).min(1).optional(),
});
export const RunRefSchema = z.object({ clusterId: z.string().optional(), runId: z.string().optional() });
export const MarkPhaseSchema = RunRefSchema.extend({ name: markText(200).min(1) });

export type RunPhase = z.infer<typeof RunPhaseSchema>;
export type Run = z.infer<typeof RunSchema>;
export type RunFigure = z.infer<typeof RunFigureSchema>;
export type FigureStats = z.infer<typeof FigureStatsSchema>;
export type Bottleneck = z.infer<typeof BottleneckSchema>;
export type BottleneckKind = Bottleneck['kind'];
export type PhaseSummary = z.infer<typeof PhaseSummarySchema>;
export type RunSummary = z.infer<typeof RunSummarySchema>;
export type RunNodeRestart = z.infer<typeof RunNodeRestartSchema>;
export type RunReport = z.infer<typeof RunReportSchema>;
export type FigureRatio = z.infer<typeof FigureRatioSchema>;
export type Comparison = z.infer<typeof ComparisonSchema>;
export type RunReports = z.infer<typeof RunReportsSchema>;
