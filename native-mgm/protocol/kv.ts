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

/**
 * `b[start, end)` as text. The server prints strings as it was given them (host names and version strings come
 * from the configuration, which is UTF-8, and from the build), so text is read as UTF-8, as the configuration is;
 * offsets and limits stay in bytes.
 */
export const text = (b: Buffer, start: number, end: number): string => b.toString('utf8', start, end);

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

/** The separator of a record line in `b[start, end)`: its first `=` or `:`, whichever comes first, like mgmapi's reader (§6.2); or -1. */
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

/**
 * An ASCII word that fast paths look for at a position (a key and its separator, a status word and its LF),
 * compared four bytes at a time through a DataView: a 255-node `get status` checks some 5,000 of them per poll,
 * and an event stream a dozen per record. The first four quads are fields rather than an array, so a compare is
 * a few loads the compiler keeps in registers, not a loop over typed arrays with their bounds checks.
 */
export class Word {
  readonly length: number = 0;
  /**
   * The word's bytes as little-endian quads at offsets 0, o1, o2, o3: 4i or, for the last, length - 4 (quads may
   * overlap). Declared with a number, not left undefined until the constructor runs, so V8 keeps them as small
   * integers and loads them without a type check.
   */
  private readonly q0: number = 0;
  private readonly q1: number = 0;
  private readonly q2: number = 0;
  private readonly q3: number = 0;
  private readonly o1: number = 0;
  private readonly o2: number = 0;
  private readonly o3: number = 0;
  /** Quads past the first four, for words longer than 16 bytes (event field names), with their offsets; else null. */
  private readonly more: { quads: Int32Array; offsets: Int32Array } | null;

  constructor(readonly text: string) {
    const bytes = ascii(text);
    if (bytes.length < 4) throw new RangeError(`a Word has at least 4 bytes: ${JSON.stringify(text)}`);
    this.length = bytes.length;
    const offsets = Array.from({ length: Math.max(4, Math.ceil(bytes.length / 4)) }, (_, i) => Math.min(i * 4, bytes.length - 4));
    const quads = offsets.map((at) => bytes.readInt32LE(at));
    [this.q0, this.q1, this.q2, this.q3] = quads as [number, number, number, number];
    [, this.o1, this.o2, this.o3] = offsets as [number, number, number, number];
    this.more = offsets.length > 4 ? { quads: Int32Array.from(quads.slice(4)), offsets: Int32Array.from(offsets.slice(4)) } : null;
  }

  /** Whether the bytes seen through `view` (see viewOf) hold the word at `pos`, ending at or before `end`. */
  at(view: DataView, pos: number, end: number): boolean {
    if (pos + this.length > end) return false;
    return (
      view.getInt32(pos, true) === this.q0 &&
      view.getInt32(pos + this.o1, true) === this.q1 &&
      view.getInt32(pos + this.o2, true) === this.q2 &&
      view.getInt32(pos + this.o3, true) === this.q3 &&
      (this.more === null || this.moreAt(view, pos))
    );
  }

  private moreAt(view: DataView, pos: number): boolean {
    const { quads, offsets } = this.more as { quads: Int32Array; offsets: Int32Array };
    for (let i = 0; i < quads.length; i++) if (view.getInt32(pos + (offsets[i] as number), true) !== quads[i]) return false;
    return true;
  }
}

/**
 * A few Words, one of which is expected at a position (a node status), each ending in a byte none holds elsewhere
 * (LF), so at most one matches: the one found last is tried first (neighbouring nodes mostly share a status), then
 * the others by their first quad.
 */
export class WordSet {
  private readonly firsts: Int32Array;
  private last = 0;

  constructor(readonly words: readonly Word[]) {
    this.firsts = Int32Array.from(words, (w) => ascii(w.text).readInt32LE(0));
  }

  /** Index of the word the bytes seen through `view` hold at `pos` (ending at or before `end`), else -1. */
  find(view: DataView, pos: number, end: number): number {
    if ((this.words[this.last] as Word).at(view, pos, end)) return this.last;
    if (pos + 4 > end) return -1;
    const first = view.getInt32(pos, true);
    const firsts = this.firsts;
    for (let i = 0; i < firsts.length; i++) {
      if (firsts[i] === first && (this.words[i] as Word).at(view, pos, end)) {
        this.last = i;
        return i;
      }
    }
    return -1;
  }
}

let viewed: Uint8Array | null = null;
let view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));

/** A DataView over exactly the bytes of `b`; the last one is kept, as a chunk is read by many calls in a row. */
export function viewOf(b: Uint8Array): DataView {
  if (b !== viewed) {
    view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    viewed = b;
  }
  return view;
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

/** A line as error texts quote it: at most 120 characters. */
export function clip(line: string): string {
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}
