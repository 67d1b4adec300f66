import { z } from 'zod';
import { NodeStatusSchema } from './node.js';

/** Series the engine keeps per second: cluster totals and per data node. */
export const METRICS = ['transactions', 'commits', 'reads', 'writes', 'scans', 'aborts', 'operations', 'dataMemory', 'indexMemory'] as const;
export const MetricSchema = z.enum(METRICS);

export const HistoryQuerySchema = z.object({
  clusterId: z.string().optional(),
  fromMs: z.number().int().nonnegative().optional(),
  toMs: z.number().int().nonnegative().optional(),
  metrics: z.array(MetricSchema).min(1),
  /** Omit for cluster totals only; the per-node series of these data nodes are added. */
  nodeIds: z.array(z.number().int()).optional(),
  /** The UI asks for about one point per pixel; the engine decimates (min/max-preserving) to this. */
  maxPoints: z.number().int().min(2).max(100_000).optional(),
});

/** Columnar, so an hour of samples for many series crosses IPC as a few flat arrays. */
export const HistorySeriesSchema = z.object({
  at: z.array(z.number().int()),
  series: z.array(
    z.object({
      /** `cluster.reads`, `node.3.dataMemory` … */
      key: z.string(),
      metric: MetricSchema,
      nodeId: z.number().int().nullable(),
      values: z.array(z.number().nullable()),
    }),
  ),
});

/** Pixels of plot per min/max pair a chart asks for: as much as the eye can tell apart, and no more to lay out. */
export const PIXELS_PER_PAIR = 4;

/** The `maxPoints` a chart `plotWidth` pixels wide asks for: one min/max pair per PIXELS_PER_PAIR pixels. */
export function chartMaxPoints(plotWidth: number): number {
  return 2 * Math.max(1, Math.floor(plotWidth / PIXELS_PER_PAIR));
}

/**
 * Length of the engine's decimation buckets for a window `spanMs` long decimated to `maxPoints` (a pair per bucket;
 * buckets are aligned to multiples of it in absolute time). A chart that knows it can tell when the newest bucket
 * closed, the only time its decimated picture changes.
 */
export function decimationBucketMs(spanMs: number, maxPoints: number): number {
  const buckets = Math.max(1, Math.floor(maxPoints / 2));
  // Samples within the span fall into at most `buckets` aligned buckets of this length.
  return Math.max(1, Math.ceil((spanMs + 1) / Math.max(1, buckets - 1)));
}

export const TimelineSchema = z.object({
  fromMs: z.number().int(),
  toMs: z.number().int(),
  nodes: z.array(
    z.object({
      nodeId: z.number().int(),
      segments: z.array(
        z.object({
          status: NodeStatusSchema,
          startPhase: z.number().int(),
          from: z.number().int(),
          /** null: still in this state. */
          to: z.number().int().nullable(),
        }),
      ),
    }),
  ),
});

/** One history sample pushed live, so charts extend without asking. */
export const HistoryPointSchema = z.object({
  at: z.number().int(),
  values: z.record(z.string(), z.number().nullable()),
});

export type Metric = z.infer<typeof MetricSchema>;
export type HistoryQuery = z.infer<typeof HistoryQuerySchema>;
export type HistorySeries = z.infer<typeof HistorySeriesSchema>;
export type Timeline = z.infer<typeof TimelineSchema>;
export type HistoryPoint = z.infer<typeof HistoryPointSchema>;
