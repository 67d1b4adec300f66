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
