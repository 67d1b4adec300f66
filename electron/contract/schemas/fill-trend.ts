import { z } from 'zod';

/**
 * Where a fill (redo, undo, DataMemory, send buffers; percent) is going, from a straight line fitted to its recent
 * readings: the engine derives it once (`engine/alerts/fill-trend.ts`) and every view and alert shows that one.
 */
export const FillTrendSchema = z.object({
  /** Points (percent) per minute: positive filling, negative emptying. */
  perMin: z.number(),
  /** Seconds until 100 % at this rate; null when not filling. */
  fullInSec: z.number().nonnegative().nullable(),
});

export type FillTrend = z.infer<typeof FillTrendSchema>;
