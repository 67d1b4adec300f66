import type { FillTrend } from '../../../contract/schemas/fill-trend.js';

/** The readings a trend is fitted to: the last minute's, so one checkpoint's drop bends it but does not rule it. */
export const TREND_WINDOW_MS = 60_000;
/** Fewer readings, or readings spanning less time, say nothing of a rate. */
const MIN_READINGS = 3;
const MIN_SPAN_MS = 5_000;
/** Slower than this (points per minute) is flat: not filling. */
const FLAT_PER_MIN = 0.01;

interface Reading {
  at: number;
  percent: number;
}

/**
 * Per fill (a node's redo log, its DataMemory …), the recent readings and the straight line through them (least
 * squares): how fast it fills and when it is full at that rate. Readings come from the figures already read; a
 * reading older than the window is dropped, and one not after the last (a replay going back) starts the series anew.
 */
export class FillTrends {
  private readonly series = new Map<string, Reading[]>();

  /** Adds a reading and returns the fill's trend now (null while the readings are too few or too close together). */
  add(key: string, at: number, percent: number): FillTrend | null {
    let readings = this.series.get(key);
    const last = readings?.at(-1);
    if (!readings || (last && at < last.at)) {
      readings = [];
      this.series.set(key, readings);
    }
    if (last && at === last.at) readings[readings.length - 1] = { at, percent };
    else readings.push({ at, percent });
    while (readings.length > 0 && (readings[0] as Reading).at < at - TREND_WINDOW_MS) readings.shift();
    return fit(readings, percent);
  }

  forget(key: string): void {
    this.series.delete(key);
  }
}

function fit(readings: readonly Reading[], now: number): FillTrend | null {
  const first = readings[0];
  const last = readings.at(-1);
  if (!first || !last || readings.length < MIN_READINGS || last.at - first.at < MIN_SPAN_MS) return null;
  const n = readings.length;
  const meanT = readings.reduce((s, r) => s + r.at, 0) / n;
  const meanP = readings.reduce((s, r) => s + r.percent, 0) / n;
  let num = 0;
  let den = 0;
  for (const r of readings) {
    num += (r.at - meanT) * (r.percent - meanP);
    den += (r.at - meanT) ** 2;
  }
  const perMin = den > 0 ? (num / den) * 60_000 : 0;
  // A fill whose last reading fell (a checkpoint freed the log, a table was dropped) is not filling now, whatever the
  // minute's line says: "46 %, full in ~53 s" right after 90 % fell to 46 % contradicts the figure beside it.
  const before = readings[n - 2];
  const filling = perMin > FLAT_PER_MIN && !(before && last.percent < before.percent);
  return { perMin, fullInSec: filling ? (Math.max(0, 100 - now) * 60) / perMin : null };
}
