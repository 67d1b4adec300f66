const SPACE = 32;
const TAB = 9;

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
