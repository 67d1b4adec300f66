/**
 * Figures read back from the words a page shows them in, with how far the words' rounding lets the figure be from the
 * one they stand for: so a page is held to the engine's figure itself, not to the engine's figure put through the
 * page's own formatter (a formatter that says MiB for MB would pass that).
 */
export interface ReadBack {
  value: number;
  /** Half the last shown digit, in the figure's units. */
  slack: number;
}

const BYTES: Readonly<Record<string, number>> = { B: 1, KiB: 2 ** 10, MiB: 2 ** 20, GiB: 2 ** 30, TiB: 2 ** 40 };
const PER_SECOND: Readonly<Record<string, number>> = { 'B/s': 1, 'kB/s': 1e3, 'MB/s': 1e6, 'GB/s': 1e9 };

function scaled(m: RegExpExecArray | null, units: Readonly<Record<string, number>>): ReadBack | null {
  if (!m?.[1] || !m[3]) return null;
  const factor = units[m[3]];
  if (factor === undefined) return null;
  const decimals = m[2]?.length ?? 0;
  return { value: Number(m[1]) * factor, slack: 0.5 * 10 ** -decimals * factor };
}

/** "1.5 GiB" at the start of a text (or after `after`, e.g. "of about "). */
export function readBytes(text: string, after = ''): ReadBack | null {
  const at = after === '' ? 0 : text.indexOf(after);
  if (at < 0) return null;
  return scaled(/^(\d+(?:\.(\d+))?) (B|KiB|MiB|GiB|TiB)\b/.exec(text.slice(at + after.length)), BYTES);
}

/** "12.3 MB/s". */
export function readRate(text: string): ReadBack | null {
  return scaled(/^(\d+(?:\.(\d+))?) (B\/s|kB\/s|MB\/s|GB\/s)$/.exec(text), PER_SECOND);
}

/** "1,234,567" at the start of a text, or the number before `before` ("… · 1,234 records"). */
export function readCount(text: string, before = ''): number | null {
  const m = before === '' ? /^([\d,]+)$/.exec(text) : new RegExp(`([\\d,]+) ${before}`).exec(text);
  return m?.[1] ? Number(m[1].replace(/,/g, '')) : null;
}

/** "42 s", "3 min 05 s", "1 h 02 min" (formatDuration's words) in ms, wherever in `text` they begin. */
export function readDuration(text: string): ReadBack | null {
  const hm = /(\d+) h (\d+) min/.exec(text);
  if (hm) return { value: (Number(hm[1]) * 60 + Number(hm[2])) * 60_000, slack: 30_000 };
  const ms = /(\d+) min (\d+) s/.exec(text);
  if (ms) return { value: (Number(ms[1]) * 60 + Number(ms[2])) * 1000, slack: 500 };
  const s = /(\d+) s\b/.exec(text);
  return s ? { value: Number(s[1]) * 1000, slack: 500 } : null;
}

/** Whether a read-back figure can stand for some value between the least and the most of `values` (the reads the page may show). */
export function within(read: ReadBack, values: readonly number[], more = 0): boolean {
  if (values.length === 0) return false;
  const slack = read.slack + more + 1e-6 * Math.abs(read.value);
  return read.value >= Math.min(...values) - slack && read.value <= Math.max(...values) + slack;
}

export const clock = (ms: number): string => new Date(ms).toISOString().slice(11, 19);

/** The statements of several reads, each once: "a or b". */
export const either = (statements: readonly string[], then = ' or '): string => [...new Set(statements)].join(then);
