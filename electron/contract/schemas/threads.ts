import { z } from 'zod';

/**
 * The Threads view's data: every data node's block threads over a window, one column per second (or per bucket of
 * seconds when the window has more seconds than the heatmap has columns). A thread's busy shares travel as bytes in
 * base64 (`page-safe/thread-cells.ts` says how to read them): an hour of 144 × 20 threads as JSON numbers would be
 * tens of megabytes; the splits of one cell are asked for when the user points at it.
 */
export const ThreadSeriesQuerySchema = z.object({
  clusterId: z.string().optional(),
  fromMs: z.number().int().nonnegative().optional(),
  toMs: z.number().int().nonnegative().optional(),
  /** The heatmap's width in columns; more seconds than that are folded into buckets (each keeps its busiest second). */
  maxColumns: z.number().int().min(1).max(10_000).optional(),
  /**
   * Only these data nodes' threads. The page asks for a few nodes at a time: 144 × 20 threads over 15 minutes is
   * ~3.5 MB, past what serve sends a WebSocket client in one answer.
   */
  nodeIds: z.array(z.number().int()).max(255).optional(),
});

export const ThreadRowSchema = z.object({
  nodeId: z.number().int(),
  thrNo: z.number().int().nonnegative(),
  /** `threads.thread_name` as last seen; null without a `threads` table. */
  name: z.string().nullable(),
  /** One byte per column: busy share in half percent (0–200), 255 where the thread has no reading. */
  busy: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/),
});

export const ThreadSeriesSchema = z.object({
  /** Start of the first column (a multiple of stepMs). */
  fromMs: z.number().int().nonnegative(),
  stepMs: z.number().int().positive(),
  columns: z.number().int().nonnegative(),
  threads: z.array(ThreadRowSchema),
});

export const ThreadPointQuerySchema = z.object({
  clusterId: z.string().optional(),
  nodeId: z.number().int(),
  thrNo: z.number().int().nonnegative(),
  /** The cell's span: the answer is its busiest second. */
  fromMs: z.number().int().nonnegative(),
  toMs: z.number().int().nonnegative(),
});

/** ndb_top's two splits of one thread's second, percentages. */
export const ThreadPointSchema = z.object({
  at: z.number().int(),
  busy: z.number(),
  exec: z.number(),
  send: z.number(),
  spin: z.number(),
  bufferFull: z.number(),
  sleep: z.number(),
  osUser: z.number(),
  osSystem: z.number(),
  osIdle: z.number(),
});

export type ThreadSeriesQuery = z.infer<typeof ThreadSeriesQuerySchema>;
export type ThreadRow = z.infer<typeof ThreadRowSchema>;
export type ThreadSeries = z.infer<typeof ThreadSeriesSchema>;
export type ThreadPointQuery = z.infer<typeof ThreadPointQuerySchema>;
export type ThreadPoint = z.infer<typeof ThreadPointSchema>;
