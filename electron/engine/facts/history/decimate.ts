import { decimationBucketMs } from '../../../contract/page-safe/chart-decimation.js';

/**
 * Min/max-preserving decimation of columnar series sharing one time axis. Each bucket becomes two rows, at its
 * first and last sample time; every series puts its minimum and maximum there in the order they occurred, so a
 * spike survives however far the chart is zoomed out.
 *
 * Buckets are aligned to multiples of their length in absolute time (`span` is the window asked for, which sets
 * that length): a window that slides keeps every bucket but the ones at its ends, so a chart asking again a pixel
 * later gets the same rows back (and can keep them), and a spike does not shimmer as bucket boundaries move.
 */
export function decimate(
  at: readonly number[],
  series: ReadonlyArray<ReadonlyArray<number | null>>,
  maxPoints: number,
  span: { fromMs: number; toMs: number } = { fromMs: at[0] ?? 0, toMs: at[at.length - 1] ?? 0 },
): { at: number[]; series: Array<Array<number | null>> } {
  if (at.length <= maxPoints) return { at: [...at], series: series.map((s) => [...s]) };
  const bucketMs = decimationBucketMs(span.toMs - span.fromMs, maxPoints);
  const bucketOf = (t: number): number => (maxPoints < 4 ? 0 : Math.floor(t / bucketMs));
  const outAt: number[] = [];
  const out = series.map((): Array<number | null> => []);
  for (let start = 0, end = 0; start < at.length; start = end) {
    const bucket = bucketOf(at[start] ?? 0);
    end = start + 1;
    while (end < at.length && bucketOf(at[end] ?? 0) === bucket) end++;
    outAt.push(at[start] ?? 0, at[end - 1] ?? 0);
    series.forEach((values, s) => {
      let min: { i: number; v: number } | null = null;
      let max: { i: number; v: number } | null = null;
      for (let i = start; i < end; i++) {
        const v = values[i];
        if (v === null || v === undefined) continue;
        if (!min || v < min.v) min = { i, v };
        if (!max || v > max.v) max = { i, v };
      }
      const pair = !min || !max ? [null, null] : min.i <= max.i ? [min.v, max.v] : [max.v, min.v];
      out[s]?.push(...pair);
    });
  }
  return { at: outAt, series: out };
}
