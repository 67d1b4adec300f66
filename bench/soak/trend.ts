/**
 * How a metric moved after warm-up: `start`/`end` are the floors (minimum) of the first and last third of the
 * samples, since garbage that is still waiting for a collection only raises single samples while a leak raises the
 * floor; `slopePerHour` is the least-squares slope through all of them.
 */
export interface Trend {
  start: number;
  end: number;
  slopePerHour: number;
  growth: number;
}

export function trend(points: ReadonlyArray<{ t: number; v: number }>): Trend {
  const n = points.length;
  if (n === 0) return { start: 0, end: 0, slopePerHour: 0, growth: 0 };
  const third = Math.max(1, Math.floor(n / 3));
  const floor = (ps: ReadonlyArray<{ v: number }>): number => Math.min(...ps.map((p) => p.v));
  const start = floor(points.slice(0, third));
  const end = floor(points.slice(n - third));
  const mt = points.reduce((s, p) => s + p.t, 0) / n;
  const mv = points.reduce((s, p) => s + p.v, 0) / n;
  const cov = points.reduce((s, p) => s + (p.t - mt) * (p.v - mv), 0);
  const varT = points.reduce((s, p) => s + (p.t - mt) ** 2, 0);
  const slope = varT === 0 ? 0 : cov / varT;
  return { start, end, slopePerHour: slope * 3_600_000, growth: start > 0 ? (end - start) / start : 0 };
}
