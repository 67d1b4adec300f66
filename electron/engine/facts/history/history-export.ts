import { type HistorySeries } from '../../../contract/schemas/history.js';
import { METRICS } from '../../../contract/page-safe/vocabulary.js';
import { escapedJson } from '../../../contract/page-safe/outside-text.js';
import { csvCell } from '../export/csv-cell.js';
import type { MaintenanceWindow } from '../../../contract/schemas/maintenance.js';
import { columnHeader, maintenanceAt, measuredValue, METRIC_UNIT, phaseAt, windowsIn, type PhaseMark } from '../export/csv-columns.js';
import type { ClusterSnapshot } from '../../../contract/schemas/snapshot.js';
import { staleNote, staleSeries } from '../export/stale-figures.js';
import type { ClusterHistory } from './history.js';

export interface HistoryExport {
  filename: string;
  mime: string;
  content: string;
}

export interface ExportRange {
  fromMs?: number;
  toMs?: number;
  /** The operator's benchmark phase marks, sorted by time or not. */
  marks?: readonly PhaseMark[];
}

function everything(history: ClusterHistory, range: ExportRange): HistorySeries {
  return history.query({ metrics: [...METRICS], nodeIds: history.knownNodeIds(), ...(range.fromMs !== undefined ? { fromMs: range.fromMs } : {}), ...(range.toMs !== undefined ? { toMs: range.toMs } : {}) });
}

/**
 * Full-resolution history of the window asked for, as CSV (one row per sample, one column per series, units in the
 * headers, values to the precision measured, the phase mark in force, the maintenance window the sample was taken
 * in) or JSON (the columnar form, the marks and the maintenance windows overlapping it): a dip inside a planned
 * restart reads as planned in the file too, not only on the chart. A series from a source lost when it is exported
 * (or of a node out of contact) says so as the page does: its header (CSV) or its entry in `stale` (JSON) gives when
 * it was last seen, why, and since when.
 */
export function exportHistory(
  history: ClusterHistory,
  meta: { clusterId: string; name: string; exportedAt: number },
  format: 'csv' | 'json',
  range: ExportRange = {},
  windows: readonly MaintenanceWindow[] = [],
  snapshot: ClusterSnapshot | null = null,
): HistoryExport {
  const data = everything(history, range);
  const stale = snapshot ? staleSeries(snapshot, data.series, data.at) : [];
  const marks = [...(range.marks ?? [])].sort((a, b) => a.at - b.at);
  const stamp = new Date(meta.exportedAt).toISOString().replace(/[:.]/g, '-');
  const base = `ndbtop-${meta.name.replace(/[^A-Za-z0-9_-]+/g, '_')}-${stamp}`;
  if (format === 'json') {
    const maintenance = windowsIn(windows, data.at[0] ?? range.fromMs ?? 0, data.at.at(-1) ?? range.toMs ?? meta.exportedAt);
    return { filename: `${base}.json`, mime: 'application/json', content: escapedJson({ ...meta, units: METRIC_UNIT, marks, maintenance, stale, ...data }) };
  }
  const notes = new Map(stale.map((s) => [s.key, ` [${staleNote(s)}]`]));
  const header = ['at (ms since epoch)', 'time (UTC)', 'phase', 'maintenance', ...data.series.map((s) => columnHeader(s.key, s.metric) + (notes.get(s.key) ?? ''))].map(csvCell).join(',');
  const rows = data.at.map((at, i) =>
    [String(at), new Date(at).toISOString(), csvCell(phaseAt(marks, at)), csvCell(maintenanceAt(windows, at)), ...data.series.map((s) => measuredValue(s.values[i] ?? null))].join(','),
  );
  return { filename: `${base}.csv`, mime: 'text/csv', content: [header, ...rows].join('\n') + '\n' };
}
