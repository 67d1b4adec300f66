import { z } from 'zod';
import { NodeStatusSchema } from './node.js';
import { METRICS } from '../page-safe/vocabulary.js';

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
