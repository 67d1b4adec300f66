export { formatDuration } from '../contract.js';

export function formatClock(at: number): string {
  const d = new Date(at);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** "2026-12-07 07:37:13" (local time): a date no locale reads the other way round (12/7 is July in most of the world). */
export function formatDateTime(at: number): string {
  const d = new Date(at);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')} ${formatClock(at)}`;
}

/**
 * A chart axis label: at most two significant decimals and the unit, so "1.2M/s" and "20k/s" always fit the axis
 * (never "0000.0M").
 */
export function formatAxisRate(value: number): string {
  if (!Number.isFinite(value)) return '';
  const abs = Math.abs(value);
  const [scaled, suffix] = abs >= 1e9 ? [value / 1e9, 'G'] : abs >= 1e6 ? [value / 1e6, 'M'] : abs >= 1e3 ? [value / 1e3, 'k'] : [value, ''];
  const digits = Math.abs(scaled) >= 100 ? 0 : Math.abs(scaled) >= 10 ? 1 : 2;
  return `${Number(scaled.toFixed(digits))}${suffix}/s`;
}

/** Pixels a y axis needs for its widest label, at the chart's 12 px font. */
export function axisWidth(labels: readonly string[]): number {
  return Math.max(40, 8 * Math.max(0, ...labels.map((l) => l.length)) + 14);
}

/** Per-second rates: 950, 12.3k, 4.56M. */
export function formatRate(value: number): string {
  if (!Number.isFinite(value)) return '–';
  if (value >= 1e6) return `${(value / 1e6).toFixed(value >= 1e7 ? 1 : 2)}M`;
  if (value >= 1e3) return `${(value / 1e3).toFixed(value >= 1e4 ? 1 : 2)}k`;
  return value >= 100 ? value.toFixed(0) : value.toFixed(1).replace(/\.0$/, '');
}

export { formatBytes } from '../contract.js';

/** "nodes 1–144, 150" rather than 145 numbers: a heading over 144 data nodes stays one line. */
export function formatNodeIds(ids: readonly number[]): string {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === (sorted[j] ?? 0) + 1) j += 1;
    const from = sorted[i];
    const to = sorted[j];
    // Two neighbours read better as "3, 4" than as a range.
    parts.push(j - i >= 2 ? `${from}–${to}` : sorted.slice(i, j + 1).join(', '));
    i = j + 1;
  }
  return `node${sorted.length === 1 ? '' : 's'} ${parts.join(', ')}`;
}
