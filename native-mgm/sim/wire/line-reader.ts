/**
 * The server's line buffer (`MaxParseBytes`, spec §14.3): a line is at most 510 characters and its LF, or 510 and
 * CRLF, since the CR then becomes the LF.
 */
export const LINE_BUFFER_BYTES = 512;

/** What the front of a session's input holds, read as the server's socket reader reads a line. */
export type LineTake =
  | { kind: 'line'; text: string; consumed: number }
  /** The reader's −1: the line did not fit; `consumed` bytes are gone, what follows them is read as a new line. */
  | { kind: 'too-long'; consumed: number }
  | { kind: 'more' };

/**
 * One line from `input` (one char per byte) as `readln_socket` (2024) takes it: a line of exactly 512 bytes
 * passes only when a CR precedes its LF; without an LF in the first 512 bytes those 512 are consumed and refused.
 * A CR before the LF is dropped only when something precedes it, so a bare CRLF stays a line holding a CR; the
 * TLS reader (`tls`) drops that one too (spec §14.3).
 */
export function takeLine(input: string, tls: boolean, limit = LINE_BUFFER_BYTES): LineTake {
  const lf = input.indexOf('\n');
  if (lf < 0 || lf >= limit) return input.length >= limit ? { kind: 'too-long', consumed: limit } : { kind: 'more' };
  const bytes = lf + 1;
  const cr = input.charCodeAt(lf - 1) === CR;
  if (bytes === limit && !cr) return { kind: 'too-long', consumed: bytes };
  return { kind: 'line', text: input.slice(0, cr && (tls || bytes > 2) ? lf - 1 : lf), consumed: bytes };
}

const CR = 13;
