import type { HistorySeries } from '../contract.js';

export type ChartRow = Readonly<Record<string, number | null>>;

/**
 * The engine's columns (cluster totals, already decimated to the chart's pixels) as the row objects recharts draws.
 * A row equal to one of `previous` (same time, same values) is that very object, and an answer equal to the last
 * returns the previous array: rows are rebuilt only where the decimated columns changed.
 */
export function toRows(history: HistorySeries | null, metrics: readonly string[], previous: readonly ChartRow[] = []): readonly ChartRow[] {
  if (!history) return previous.length === 0 ? previous : [];
  const columns = metrics.map((m) => history.series.find((s) => s.nodeId === null && s.metric === m)?.values ?? []);
  const before = new Map(previous.map((row) => [row.at, row]));
  let reused = 0;
  const rows = history.at.map((at, i) => {
    const old = before.get(at);
    if (old && metrics.every((m, c) => old[m] === (columns[c]?.[i] ?? null))) {
      reused += 1;
      return old;
    }
    const row: Record<string, number | null> = { at };
    metrics.forEach((m, c) => (row[m] = columns[c]?.[i] ?? null));
    return row;
  });
  return reused === rows.length && rows.length === previous.length && rows.every((r, i) => r === previous[i]) ? previous : rows;
}

/** The newest finite value of each metric. */
export function lastValues(rows: readonly ChartRow[], metrics: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of metrics) {
    for (let i = rows.length - 1; i >= 0; i--) {
      const v = rows[i]?.[m];
      if (typeof v === 'number' && Number.isFinite(v)) {
        out.set(m, v);
        break;
      }
    }
  }
  return out;
}
