import type { Alert } from '../schemas/events.js';
import type { FillTrend } from '../schemas/fill-trend.js';

export type LevelFigures = NonNullable<Alert['level']>;

/** When a fill is to be full within this, at the rate it fills now, a `fill-soon` alert warns (10 minutes). */
export const FILL_SOON_SEC = 600;

const pct = (v: number): string => `${Math.round(v)} %`;

/**
 * A level alert's words, from the engine's figures: "redo log 95 % full (≥ 90 %)"; once the figure has moved, its
 * peak and the figure now, so it never states a figure the panels beside it contradict: "redo log peaked at 95 %
 * full, now 2 % (alert at 90 %)".
 */
export function levelWords(f: LevelFigures): string {
  if (!levelMoved(f)) return `${f.subject} ${pct(f.now)} ${f.unit} (≥ ${f.mark} %)`;
  return `${f.subject} peaked at ${pct(f.peak)} ${f.unit}, now ${pct(f.now)} (alert at ${f.mark} %)`;
}

/** The figure now reads differently from the peak the alert was on at. */
export function levelMoved(f: Pick<LevelFigures, 'peak' | 'now'>): boolean {
  return Math.round(f.peak) !== Math.round(f.now);
}

/** "42 s", "7 min", "3 h": a lead time as round as its precision. */
function leadTime(sec: number): string {
  if (sec < 90) return `${Math.max(1, Math.round(sec))} s`;
  if (sec < 90 * 60) return `${Math.round(sec / 60)} min`;
  return `${Math.round(sec / 3600)} h`;
}

/** "full in ~7 min at this rate", "not filling", or null while too few readings give no trend. */
export function fullInWords(trend: FillTrend | null | undefined): string | null {
  if (!trend) return null;
  return trend.fullInSec === null ? 'not filling' : `full in ~${leadTime(trend.fullInSec)} at this rate`;
}

/** "+5.4 points/min", "−0.3 points/min": the rate a lead time rests on. */
export function trendRateWords(trend: FillTrend): string {
  const v = Math.abs(trend.perMin) >= 10 ? Math.round(trend.perMin).toString() : trend.perMin.toFixed(1);
  return `${trend.perMin > 0 ? '+' : trend.perMin < 0 ? '−' : ''}${v.replace('-', '')} points/min`;
}
