/** A least-squares line through (t, v): growth over the window as a fraction of the fitted start. */
export interface Trend {
  start: number;
  end: number;
  /** Units per hour. */
  slopePerHour: number;
  growth: number;
}

export function trend(points: ReadonlyArray<{ t: number; v: number }>): Trend {
  const n = points.length;
  if (n < 2) return { start: points[0]?.v ?? 0, end: points[0]?.v ?? 0, slopePerHour: 0, growth: 0 };
  const mt = points.reduce((s, p) => s + p.t, 0) / n;
  const mv = points.reduce((s, p) => s + p.v, 0) / n;
  const cov = points.reduce((s, p) => s + (p.t - mt) * (p.v - mv), 0);
  const varT = points.reduce((s, p) => s + (p.t - mt) ** 2, 0);
  const slope = varT === 0 ? 0 : cov / varT;
  const t0 = points[0]?.t ?? 0;
  const t1 = points[n - 1]?.t ?? 0;
  const start = mv + slope * (t0 - mt);
  const end = mv + slope * (t1 - mt);
  return { start, end, slopePerHour: slope * 3_600_000, growth: start > 0 ? (end - start) / start : 0 };
}
