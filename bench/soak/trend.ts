/**
 * How a metric moved after warm-up, judged from a fitted line rather than from single samples. The slope is a
 * Theil–Sen estimate, the median of the slopes between pairs of samples, so a few samples taken while garbage
 * waited for a collection or while other jobs on the machine starved us of CPU hardly move it, while a leak moves
 * every sample and so the line. Samples may carry a `group` (the scenario running) and `slice` (which run of it):
 * the engine's retained state rightly differs between scenarios (the event log holds that scenario's events), so
 * only pairs of the same scenario in different runs of it (a cycle apart) are compared, and the order in which
 * the scenarios happen to come cannot pass for growth. `start`/`end` are the line at the first and last sample,
 * `growth` end over start, `spread` the median absolute residual (the noise the line was fitted through).
 */
export interface Trend {
  start: number;
  end: number;
  slopePerHour: number;
  growth: number;
  spread: number;
  /** How many pairs of samples the slope is the median of. */
  pairs: number;
}

export interface TrendPoint {
  t: number;
  v: number;
  group?: string;
  slice?: number;
}

const median = (xs: readonly number[]): number => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};

const comparable = (a: TrendPoint, b: TrendPoint): boolean =>
  a.t !== b.t && (a.group === undefined || (a.group === b.group && a.slice !== b.slice));

export function trend(points: readonly TrendPoint[]): Trend {
  const n = points.length;
  const slopes: number[] = [];
  for (let i = 0; i < n; i += 1) {
    for (let j = i + 1; j < n; j += 1) {
      const [a, b] = [points[i], points[j]];
      if (a && b && comparable(a, b)) slopes.push((b.v - a.v) / (b.t - a.t));
    }
  }
  const slope = median(slopes);
  const intercept = median(points.map((p) => p.v - slope * p.t));
  const at = (t: number): number => intercept + slope * t;
  const start = at(points[0]?.t ?? 0);
  const end = at(points[n - 1]?.t ?? 0);
  const spread = median(points.map((p) => Math.abs(p.v - at(p.t))));
  return { start, end, slopePerHour: slope * 3_600_000, growth: start > 0 ? (end - start) / start : 0, spread, pairs: slopes.length };
}
