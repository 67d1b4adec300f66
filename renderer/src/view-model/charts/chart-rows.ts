import type { HistorySeries } from '../../contract.js';

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

/** What the main chart draws: its rows and the time axis they sit on, with the decimation they came from. */
export interface PlotFrame {
  rows: readonly ChartRow[];
  from: number;
  until: number;
  windowMs: number;
  /** Length of the engine's decimation buckets for this window and width (`decimationBucketMs`). */
  bucketMs: number;
}

/**
 * The frame the chart draws after an answer: `next` when its picture differs from `shown` in more than the newest,
 * still filling bucket — a bucket closed (the newest row is in a later one), the window or the width changed, or the
 * axis is zoomed to fewer samples than the window holds (each answer then moves it visibly); otherwise `shown` itself,
 * so recharts does not redraw an hour of lines for a few pixels at the right edge. What the open bucket holds is
 * drawn when it closes: a spike there shows one bucket later (seconds, over an hour), never lost.
 */
export function nextPlotFrame(shown: PlotFrame | null, next: PlotFrame): PlotFrame {
  if (shown === null || shown.windowMs !== next.windowMs || shown.bucketMs !== next.bucketMs) return next;
  // The axis starts at the first sample when the window is not full; the oldest bucket is partly empty anyway.
  if (next.from > next.until - next.windowMs + next.bucketMs) return next;
  const newest = (f: PlotFrame): number | null => {
    const at = f.rows[f.rows.length - 1]?.at;
    return typeof at === 'number' ? Math.floor(at / f.bucketMs) : null;
  };
  const bucket = newest(next);
  return bucket !== null && bucket === newest(shown) ? shown : next;
}
