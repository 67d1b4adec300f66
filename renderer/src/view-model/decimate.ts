/**
 * Min/max decimation to about `maxPoints` points: each bucket keeps its lowest and highest sample in time order,
 * so spikes and dips survive on screen. NaN (no value) is skipped; buckets with no value are dropped.
 */
export function decimateMinMax(at: readonly number[], values: readonly number[], maxPoints: number): { at: number[]; values: number[] } {
  if (at.length <= maxPoints) return { at: [...at], values: [...values] };
  const buckets = Math.max(1, Math.floor(maxPoints / 2));
  const size = at.length / buckets;
  const outAt: number[] = [];
  const outValues: number[] = [];
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor(b * size);
    const to = Math.min(at.length, Math.floor((b + 1) * size));
    let lo = -1;
    let hi = -1;
    for (let i = from; i < to; i++) {
      const v = values[i] ?? NaN;
      if (Number.isNaN(v)) continue;
      if (lo === -1 || v < (values[lo] ?? NaN)) lo = i;
      if (hi === -1 || v > (values[hi] ?? NaN)) hi = i;
    }
    if (lo === -1) continue;
    for (const i of lo === hi ? [lo] : [Math.min(lo, hi), Math.max(lo, hi)]) {
      outAt.push(at[i] ?? 0);
      outValues.push(values[i] ?? NaN);
    }
  }
  return { at: outAt, values: outValues };
}
