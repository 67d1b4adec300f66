import { METRICS, type HistorySeries } from '../contract/history.js';
import type { ClusterHistory } from './history.js';

export interface HistoryExport {
  filename: string;
  mime: string;
  content: string;
}

function everything(history: ClusterHistory, fromMs: number | undefined): HistorySeries {
  return history.query({ metrics: [...METRICS], nodeIds: history.knownNodeIds(), ...(fromMs !== undefined ? { fromMs } : {}) });
}

function csvCell(v: number | null): string {
  return v === null ? '' : String(v);
}

/** Full-resolution history as CSV (one row per sample, one column per series) or JSON (the columnar form). */
export function exportHistory(history: ClusterHistory, meta: { clusterId: string; name: string; exportedAt: number }, format: 'csv' | 'json', fromMs?: number): HistoryExport {
  const data = everything(history, fromMs);
  const stamp = new Date(meta.exportedAt).toISOString().replace(/[:.]/g, '-');
  const base = `ndbtop-${meta.name.replace(/[^A-Za-z0-9_-]+/g, '_')}-${stamp}`;
  if (format === 'json') {
    return { filename: `${base}.json`, mime: 'application/json', content: JSON.stringify({ ...meta, ...data }) };
  }
  const header = ['at', 'time', ...data.series.map((s) => s.key)].join(',');
  const rows = data.at.map((at, i) => [String(at), new Date(at).toISOString(), ...data.series.map((s) => csvCell(s.values[i] ?? null))].join(','));
  return { filename: `${base}.csv`, mime: 'text/csv', content: [header, ...rows].join('\n') + '\n' };
}
