const SPACE = 32;
const TAB = 9;
const EQUALS = 61;
const MINUS = 45;
const ZERO = 48;
export const LF = 10;
export const COLON = 58;

/** Trims spaces and tabs only, as the server and mgmapi do; other whitespace is content. Runs for every line. */
export function trimBlanks(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && (s.charCodeAt(start) === SPACE || s.charCodeAt(start) === TAB)) start++;
  while (end > start && (s.charCodeAt(end - 1) === SPACE || s.charCodeAt(end - 1) === TAB)) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** Splits a reply line at the first `:` (values may hold IPv6 addresses and further colons, spec §1.3). */
export function splitReplyLine(line: string): readonly [string, string] | null {
  const i = line.indexOf(':');
  return i < 0 ? null : [trimBlanks(line.slice(0, i)), trimBlanks(line.slice(i + 1))];
}

/** Splits an event record line at the first `=` or `:`, whichever comes first, like mgmapi's reader (§6.2). */
export function splitRecordLine(line: string): readonly [string, string] | null {
  const eq = line.indexOf('=');
  const colon = line.indexOf(':');
  const i = eq < 0 ? colon : colon < 0 ? eq : Math.min(eq, colon);
  return i < 0 ? null : [trimBlanks(line.slice(0, i)), trimBlanks(line.slice(i + 1))];
}

/** `b[start, end)` as a string, one char per byte. */
export const latin1 = (b: Buffer, start: number, end: number): string => b.toString('latin1', start, end);

/** The bytes of an ASCII word, for comparing lines in place. */
export const ascii = (word: string): Buffer => Buffer.from(word, 'latin1');

/** Where `b[start, end)` begins once leading spaces and tabs are skipped. */
export function blankSkip(b: Uint8Array, start: number, end: number): number {
  let i = start;
  while (i < end && (b[i] === SPACE || b[i] === TAB)) i++;
  return i;
}

/** Where `b[start, end)` ends once trailing spaces and tabs are dropped. */
export function blankTrim(b: Uint8Array, start: number, end: number): number {
  let i = end;
  while (i > start && (b[i - 1] === SPACE || b[i - 1] === TAB)) i--;
  return i;
}

/** The separator of a record line in `b[start, end)`: its first `=` or `:` (as splitRecordLine), or -1. */
export function recordSeparator(b: Uint8Array, start: number, end: number): number {
  for (let i = start; i < end; i++) {
    const c = b[i];
    if (c === EQUALS || c === COLON) return i;
  }
  return -1;
}

/** The first byte `c` in `b[start, end)`, or -1. */
export function byteIn(b: Uint8Array, c: number, start: number, end: number): number {
  for (let i = start; i < end; i++) if (b[i] === c) return i;
  return -1;
}

/** Whether `b` holds `word` at `pos`, before `end`. */
export function hasAt(b: Uint8Array, pos: number, end: number, word: Uint8Array): boolean {
  if (pos + word.length > end) return false;
  for (let i = 0; i < word.length; i++) if (b[pos + i] !== word[i]) return false;
  return true;
}

/** Where fast paths leave a number they read. */
export interface NumberSlot {
  n: number;
}

/**
 * For fast paths: an optional `-` and 1 to 15 digits (so a safe integer, read exactly as `parseDecimalAt` reads
 * it) running up to an LF before `end`. Returns the LF's index with the number in `out.n`, else -1.
 */
export function decimalToLf(b: Uint8Array, start: number, end: number, out: NumberSlot): number {
  const negative = start < end && b[start] === MINUS;
  const digits = negative ? start + 1 : start;
  let n = 0;
  let i = digits;
  for (; i < end; i++) {
    const d = (b[i] as number) - ZERO;
    if (d < 0 || d > 9) break;
    n = n * 10 + d;
  }
  if (i === digits || i - digits > 15 || i === end || b[i] !== LF) return -1;
  out.n = negative ? -n : n;
  return i;
}

/** Whether `b[start, end)` is exactly `word`. */
export function rangeIs(b: Uint8Array, start: number, end: number, word: Uint8Array): boolean {
  if (end - start !== word.length) return false;
  for (let i = 0; i < word.length; i++) if (b[start + i] !== word[i]) return false;
  return true;
}
