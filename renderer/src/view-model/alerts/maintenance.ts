import { ALERT_KIND_LABEL, type AlertHistory, type AlertKind, type MaintenanceWindow } from '../../contract.js';
import { formatClock, formatDuration } from '../format.js';

/** Every alert kind, in the order the chooser lists them. */
export const ALERT_KINDS = Object.keys(ALERT_KIND_LABEL) as AlertKind[];

/** Durations the page offers when a window is opened; null: until stopped. */
export const WINDOW_DURATIONS: ReadonlyArray<{ label: string; ms: number | null }> = [
  { label: 'until stopped', ms: null },
  { label: '15 min', ms: 15 * 60_000 },
  { label: '30 min', ms: 30 * 60_000 },
  { label: '1 h', ms: 3_600_000 },
  { label: '2 h', ms: 2 * 3_600_000 },
  { label: '4 h', ms: 4 * 3_600_000 },
];

/** Still open: not stopped, and its duration (if any) not run out by `now`. */
export function isOpen(w: MaintenanceWindow, now: number): boolean {
  return w.end === null && (w.until === null || w.until > now);
}

export function openWindows(windows: readonly MaintenanceWindow[], now: number): MaintenanceWindow[] {
  return windows.filter((w) => isOpen(w, now));
}

/** "all alerts", or the kinds it silences in the strip's words ("data node down …, node group degraded"). */
export function silenceText(silence: readonly AlertKind[]): string {
  if (ALERT_KINDS.every((k) => silence.includes(k))) return 'all alerts';
  return silence.map((k) => ALERT_KIND_LABEL[k]).join(', ');
}

/** "until stopped", "12 min 05 s left (until 14:30:00)", or how it ended. */
export function windowTiming(w: MaintenanceWindow, now: number): string {
  if (w.end !== null) return `${formatClock(w.start)}–${formatClock(w.end)} (${formatDuration(w.end - w.start)})`;
  if (w.until === null) return `since ${formatClock(w.start)}, until stopped`;
  return `since ${formatClock(w.start)}, ${formatDuration(Math.max(0, w.until - now))} left (until ${formatClock(w.until)})`;
}

export interface WindowBand {
  id: string;
  x1: number;
  x2: number;
  label: string;
}

/**
 * The part of each window inside [from, until] of a chart, for a shaded band: an open window reaches the chart's
 * right edge (or its own end, if it has a duration that ends sooner).
 */
export function windowBands(windows: readonly MaintenanceWindow[], from: number, until: number): WindowBand[] {
  const bands: WindowBand[] = [];
  for (const w of windows) {
    const end = w.end ?? (w.until !== null ? Math.min(w.until, until) : until);
    const x1 = Math.max(w.start, from);
    const x2 = Math.min(end, until);
    if (x2 <= x1) continue;
    bands.push({ id: w.id, x1, x2, label: `maintenance: ${w.reason}` });
  }
  return bands;
}

/** A band placed on an axis: `left` and `width` as fractions (0–1) of the axis' length. */
export interface PlacedBand extends WindowBand {
  left: number;
  width: number;
}

/** Where an instant sits on an axis, as a fraction of its length. */
export type AxisPlace = (t: number) => number;

/** An axis linear in time from `from` to `to` (the restart timeline, the thread heatmap's columns). */
export function linearPlace(from: number, to: number): AxisPlace {
  const span = Math.max(1, to - from);
  return (t) => (t - from) / span;
}

/**
 * An axis of evenly spaced samples (a sparkline: sample i at i / (n − 1) of its width, whatever its time): an
 * instant sits at the first sample taken at or after it.
 */
export function samplePlace(at: readonly number[]): AxisPlace {
  const last = Math.max(1, at.length - 1);
  return (t) => {
    let lo = 0;
    let hi = at.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((at[mid] ?? Infinity) < t) lo = mid + 1;
      else hi = mid;
    }
    return Math.min(lo, last) / last;
  };
}

/** The windows' bands on an axis; one that covers no sample of it (narrower than a sample) is left out. */
export function placeBands(bands: readonly WindowBand[], place: AxisPlace): PlacedBand[] {
  return bands.flatMap((b) => {
    const left = Math.max(0, place(b.x1));
    const width = Math.min(1, place(b.x2)) - left;
    return width > 0 ? [{ ...b, left, width }] : [];
  });
}

export interface HistoryRow {
  id: string;
  kind: AlertKind;
  severity: 'warning' | 'critical';
  nodeId: number | null;
  message: string;
  raisedAt: number;
  clearedAt: number | null;
  durationMs: number | null;
  /** Shown as a banner, or kept out of it by a maintenance window. */
  outcome: 'raised' | 'suppressed';
  /** Why it was suppressed: the window's reason and id. */
  why: string | null;
}

/**
 * The alert history, newest first, each with what happened to it: raised as a banner, or suppressed by a maintenance
 * window (named by its reason, so "why" needs no second look).
 */
export function historyRows(history: AlertHistory, windows: readonly MaintenanceWindow[]): HistoryRow[] {
  const byId = new Map(windows.map((w) => [w.id, w]));
  return history.entries
    .map((e): HistoryRow => {
      const w = e.silencedBy === null ? undefined : byId.get(e.silencedBy);
      const why = e.silencedBy === null ? null : `maintenance window ${e.silencedBy}${w ? `: ${w.reason}` : ''}`;
      return { ...e, outcome: e.silencedBy === null ? 'raised' : 'suppressed', why };
    })
    .sort((a, b) => b.raisedAt - a.raisedAt);
}

export interface HistorySummary {
  raised: number;
  suppressed: number;
  /** Still on (raised or suppressed). */
  open: number;
}

export function historySummary(rows: readonly HistoryRow[]): HistorySummary {
  let raised = 0;
  let suppressed = 0;
  let open = 0;
  for (const r of rows) {
    if (r.outcome === 'raised') raised += 1;
    else suppressed += 1;
    if (r.clearedAt === null) open += 1;
  }
  return { raised, suppressed, open };
}

/** "3 min 05 s", or "on for 42 s" while it lasts. */
export function rowDuration(r: HistoryRow, now: number): string {
  return r.durationMs !== null ? formatDuration(r.durationMs) : `on for ${formatDuration(now - r.raisedAt)}`;
}
