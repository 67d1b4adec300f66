const EDGE_BLANKS = /^[ \t]+|[ \t]+$/g;

/** Trims spaces and tabs only, as the server and mgmapi do; other whitespace is content. */
export function trimBlanks(s: string): string {
  // Most keys and values have no edge blanks; skip the regex for them (this runs for every line received).
  if (s.length === 0) return s;
  const first = s.charCodeAt(0);
  const last = s.charCodeAt(s.length - 1);
  if (first !== 32 && first !== 9 && last !== 32 && last !== 9) return s;
  return s.replace(EDGE_BLANKS, '');
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
