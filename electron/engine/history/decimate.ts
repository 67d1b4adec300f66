/**
 * Min/max-preserving decimation of columnar series sharing one time axis. Each bucket becomes two rows, at its
 * first and last sample time; every series puts its minimum and maximum there in the order they occurred, so a
 * spike survives however far the chart is zoomed out.
 */
export function decimate(at: readonly number[], series: ReadonlyArray<ReadonlyArray<number | null>>, maxPoints: number): { at: number[]; series: Array<Array<number | null>> } {
  if (at.length <= maxPoints) return { at: [...at], series: series.map((s) => [...s]) };
  const buckets = Math.max(1, Math.floor(maxPoints / 2));
  const outAt: number[] = [];
  const out = series.map((): Array<number | null> => []);
  for (let b = 0; b < buckets; b++) {
    const start = Math.floor((b * at.length) / buckets);
    const end = Math.floor(((b + 1) * at.length) / buckets);
    if (end <= start) continue;
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
