import type { Metric } from '../../../contract/schemas/history.js';
import type { MaintenanceWindow } from '../../../contract/schemas/maintenance.js';

/** What each metric is measured in: rates per second, memory as a percentage of what the nodes have. */
export const METRIC_UNIT: Record<Metric, '/s' | '%'> = {
  transactions: '/s',
  commits: '/s',
  reads: '/s',
  writes: '/s',
  scans: '/s',
  aborts: '/s',
  operations: '/s',
  dataMemory: '%',
  indexMemory: '%',
  hottestThread: '%',
  redoFill: '%',
};

/**
 * Rates come from integer counts over multi-second windows and memory from whole pages: one decimal is all the
 * precision there is; more digits would only be the division's noise.
 */
export function measuredValue(v: number | null): string {
  if (v === null || !Number.isFinite(v)) return '';
  return String(Math.round(v * 10) / 10);
}

/** The column header of a series: its key and its unit, e.g. `cluster.reads (/s)`, `node.3.dataMemory (%)`. */
export function columnHeader(key: string, metric: Metric): string {
  return `${key} (${METRIC_UNIT[metric]})`;
}

export interface PhaseMark {
  at: number;
  label: string;
}

/** The benchmark phase a sample belongs to: the label of the last mark at or before it. */
export function phaseAt(marks: readonly PhaseMark[], at: number): string {
  let label = '';
  for (const m of marks) if (m.at <= at) label = m.label;
  return label;
}

/** Half-open like a run's phases: a window covers [start, end); an open one everything from its start on. */
function covers(w: MaintenanceWindow, at: number): boolean {
  return w.start <= at && (w.end === null || at < w.end);
}

/** The maintenance windows a sample was taken in, as "id: reason" (`;` between two), empty outside any. */
export function maintenanceAt(windows: readonly MaintenanceWindow[], at: number): string {
  return windows
    .filter((w) => covers(w, at))
    .map((w) => `${w.id}: ${w.reason}`)
    .join('; ');
}

/** The windows that overlap [from, to]: what a JSON export lists beside its samples. */
export function windowsIn(windows: readonly MaintenanceWindow[], from: number, to: number): MaintenanceWindow[] {
  return windows.filter((w) => w.start <= to && (w.end === null || w.end > from));
}
