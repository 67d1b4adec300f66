/** The four rates the room reads, in the order they are shown. */
export const HEADLINE_METRICS = ['transactions', 'reads', 'writes', 'aborts'] as const;
export type HeadlineMetric = (typeof HEADLINE_METRICS)[number];

export const TREND_WINDOW_MS = 60_000;
/** A change smaller than this share of the minute's mean reads as steady: a rate always wobbles a little. */
export const STEADY_SHARE = 0.05;

export interface Trend {
  direction: 'up' | 'down' | 'steady' | 'unknown';
  /** Signed change against the last minute's mean, as a share of it; null without a baseline. */
  change: number | null;
  /** How far back the baseline reaches: less than the minute right after a start, and the text says so. */
  spanMs: number;
}

/**
 * The current rate against the mean of the minute before it. Samples are the cluster totals the engine records once
 * a second; the current sample is left out of the baseline so a sudden drop shows in full.
 */
export function trendOf(current: number | null, samples: { at: readonly number[]; values: readonly number[] }, now: number): Trend {
  if (current === null || !Number.isFinite(current)) return { direction: 'unknown', change: null, spanMs: 0 };
  let sum = 0;
  let count = 0;
  let oldest = now;
  samples.at.forEach((at, i) => {
    const v = samples.values[i];
    if (at >= now || at < now - TREND_WINDOW_MS || v === undefined || !Number.isFinite(v)) return;
    sum += v;
    count += 1;
    oldest = Math.min(oldest, at);
  });
  const spanMs = now - oldest;
  // Fewer than a handful of seconds is no minute to compare with.
  if (count < 5) return { direction: 'unknown', change: null, spanMs };
  const mean = sum / count;
  if (mean === 0) return current === 0 ? { direction: 'steady', change: 0, spanMs } : { direction: 'up', change: null, spanMs };
  const change = (current - mean) / mean;
  if (Math.abs(change) < STEADY_SHARE) return { direction: 'steady', change, spanMs };
  return { direction: change > 0 ? 'up' : 'down', change, spanMs };
}

const ARROWS: Record<Trend['direction'], string> = { up: '▲', down: '▼', steady: '▶', unknown: '' };

/** "▲ 12 % vs last min" ("vs last 20 s" while fewer seconds are known), "▶ steady", "" without a baseline. */
export function trendText(trend: Trend): string {
  if (trend.direction === 'unknown') return '';
  if (trend.direction === 'steady') return `${ARROWS.steady} steady`;
  if (trend.change === null) return `${ARROWS[trend.direction]} from zero`;
  const pct = Math.abs(trend.change) * 100;
  // A sample a second: a baseline missing at most a few of the minute's samples still is "the last minute".
  const span = trend.spanMs >= TREND_WINDOW_MS - 5000 ? 'min' : `${Math.max(1, Math.round(trend.spanMs / 1000))} s`;
  return `${ARROWS[trend.direction]} ${pct >= 10 ? pct.toFixed(0) : pct.toFixed(1)} % vs last ${span}`;
}

/** The newest finite sample (the one a lost source last gave): what the headline shows once the rates are gone. */
export function lastSample(samples: { values: readonly number[] }): number | null {
  for (let i = samples.values.length - 1; i >= 0; i--) {
    const v = samples.values[i];
    if (v !== undefined && Number.isFinite(v)) return v;
  }
  return null;
}
