/**
 * How a thread's busy share is kept and sent as one byte: half percent steps (0–200), CELL_NONE for a second without
 * a reading. Both the engine's per-thread series and the page's heatmap read and write cells through these, so the
 * quantisation is decided once.
 */
export const CELL_NONE = 255;
export const CELL_STEPS_PER_PERCENT = 2;

export function toCell(percent: number): number {
  return Math.max(0, Math.min(200, Math.round(percent * CELL_STEPS_PER_PERCENT)));
}

export function cellPercent(cell: number): number | null {
  return cell === CELL_NONE ? null : cell / CELL_STEPS_PER_PERCENT;
}

/** The bytes of a ThreadRow's `busy` (base64 in a string: the page has atob, Node has Buffer; both have this). */
export function decodeCells(base64: string): Uint8Array {
  const text = atob(base64);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/**
 * Seconds per heatmap column for a window of `seconds` on `maxColumns` columns: 1 while they fit, else the length of
 * aligned buckets (multiples of it in absolute time) of which the window spans at most `maxColumns`. The engine
 * folds the series with it and the page extends the folded series with it, so both must agree.
 */
export function columnSeconds(seconds: number, maxColumns: number): number {
  return seconds <= maxColumns ? 1 : Math.ceil(seconds / Math.max(1, maxColumns - 1));
}
