const SPACE = 32;
const TAB = 9;
const EQUALS = 61;
export const COLON = 58;

/** Trims spaces and tabs only, as the server and mgmapi do; other whitespace is content. Runs for every line. */
export function trimBlanks(s: string): string {
  const start = blankSkip(s, 0, s.length);
  const end = blankTrim(s, start, s.length);
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** Splits an event record line at the first `=` or `:`, whichever comes first, like mgmapi's reader (§6.2). */
export function splitRecordLine(line: string): readonly [string, string] | null {
  const i = recordSeparator(line, 0, line.length);
  return i < 0 ? null : [trimBlanks(line.slice(0, i)), trimBlanks(line.slice(i + 1))];
}

/** Where the text of `s[start, end)` begins once leading spaces and tabs are skipped. */
export function blankSkip(s: string, start: number, end: number): number {
  let i = start;
  while (i < end && (s.charCodeAt(i) === SPACE || s.charCodeAt(i) === TAB)) i++;
  return i;
}

/** Where the text of `s[start, end)` ends once trailing spaces and tabs are dropped. */
export function blankTrim(s: string, start: number, end: number): number {
  let i = end;
  while (i > start && (s.charCodeAt(i - 1) === SPACE || s.charCodeAt(i - 1) === TAB)) i--;
  return i;
}

/** The separator of a record line in `s[start, end)`: its first `=` or `:` (as splitRecordLine), or -1. */
export function recordSeparator(s: string, start: number, end: number): number {
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c === EQUALS || c === COLON) return i;
  }
  return -1;
}


/** The first `c` (a char code) in `s[start, end)`, or -1; a loop the JIT inlines, for short lines. */
export function charIn(s: string, c: number, start: number, end: number): number {
  for (let i = start; i < end; i++) if (s.charCodeAt(i) === c) return i;
  return -1;
}

/** Whether `s[start, end)` is exactly `word`, without cutting it out. */
export function rangeIs(s: string, start: number, end: number, word: string): boolean {
  if (end - start !== word.length) return false;
  // A loop the JIT inlines: startsWith is a call into the runtime, and this runs for every line.
  for (let i = 0; i < word.length; i++) if (s.charCodeAt(start + i) !== word.charCodeAt(i)) return false;
  return true;
}
