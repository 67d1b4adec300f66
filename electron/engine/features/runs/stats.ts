import type { FigureStats } from '../../../contract/schemas/runs.js';

/**
 * Percentile by linear interpolation between the closest ranks (numpy's default, R type 7): p in [0, 1] of
 * sorted values. Documented in the report so the figures can be checked by hand.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const a = sorted[lo] ?? NaN;
  const b = sorted[Math.min(lo + 1, sorted.length - 1)] ?? a;
  return a + (h - lo) * (b - a);
}

/** Mean, median, p5, p95, min and max of the known values; null when none is known. */
export function figureStats(values: readonly (number | null)[]): FigureStats | null {
  const known = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (known.length === 0) return null;
  const sorted = [...known].sort((a, b) => a - b);
  const sum = known.reduce((s, v) => s + v, 0);
  return {
    mean: sum / known.length,
    median: percentile(sorted, 0.5),
    p5: percentile(sorted, 0.05),
    p95: percentile(sorted, 0.95),
    min: sorted[0] ?? NaN,
    max: sorted[sorted.length - 1] ?? NaN,
    samples: known.length,
  };
}
