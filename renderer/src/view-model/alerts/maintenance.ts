import { ALERT_KIND_LABEL, maintenanceEventText, DEFAULT_MAINTENANCE_MS, MAX_MAINTENANCE_MS, MAX_MAINTENANCE_TEXT, type AlertHistory, type AlertKind, type MaintenanceEvent, type MaintenanceWindow } from '../../contract.js';
import { formatClock, formatDuration } from '../format.js';

/** Every alert kind, in the order the chooser lists them. */
export const ALERT_KINDS = Object.keys(ALERT_KIND_LABEL) as AlertKind[];

/** Durations the page offers when a window is opened: up to the longest a window may last (MAX_MAINTENANCE_MS). */
export const WINDOW_DURATIONS: ReadonlyArray<{ label: string; ms: number }> = [
  { label: '15 min', ms: 15 * 60_000 },
  { label: '30 min', ms: 30 * 60_000 },
  { label: '1 h', ms: 3_600_000 },
  { label: '2 h', ms: 2 * 3_600_000 },
  { label: '4 h', ms: 4 * 3_600_000 },
  { label: '8 h', ms: 8 * 3_600_000 },
  { label: `${MAX_MAINTENANCE_TEXT} (the longest)`, ms: MAX_MAINTENANCE_MS },
];

/** What the chooser starts on: the engine's own default. */
export const DEFAULT_DURATION = Math.max(0, WINDOW_DURATIONS.findIndex((d) => d.ms === DEFAULT_MAINTENANCE_MS));

/** How much longer "extend" makes an open window. */
export const EXTEND_MS = 30 * 60_000;

/** Still open: not stopped, and its duration (if any) not run out by `now`. */
export function isOpen(w: MaintenanceWindow, now: number): boolean {
  return w.end === null && (w.until === null || w.until > now);
}

export function openWindows(windows: readonly MaintenanceWindow[], now: number): MaintenanceWindow[] {
  return windows.filter((w) => isOpen(w, now));
}

/**
 * "all alerts", or the kinds it silences in the strip's words ("data node down …, node group degraded"), and
 * whether their critical alerts are silenced too.
 */
export function silenceText(silence: readonly AlertKind[], silenceCritical: boolean): string {
  const kinds = ALERT_KINDS.every((k) => silence.includes(k)) ? 'all alerts' : silence.map((k) => ALERT_KIND_LABEL[k]).join(', ');
  return silenceCritical ? `${kinds}, CRITICAL ONES INCLUDED` : `${kinds} (critical ones still raised)`;
}

/** The open window that silences critical alerts, if any: the header says so, by whom and until when. */
export function criticalSilence(windows: readonly MaintenanceWindow[], now: number): MaintenanceWindow | undefined {
  return openWindows(windows, now).find((w) => w.silenceCritical);
}

/** "critical alerts silenced by alice@ops until 14:30:00". */
export function criticalSilenceText(w: MaintenanceWindow): string {
  return `critical alerts silenced by ${w.openedBy} ${w.until === null ? 'until stopped' : `until ${formatClock(w.until)}`}`;
}

/** One line of a window's history, in the page's clock. */
export function windowEventText(e: MaintenanceEvent): string {
  return maintenanceEventText(e, formatClock);
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
