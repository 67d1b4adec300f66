import { ProtocolError } from '../errors.js';

export type RequestArgs = ReadonlyArray<readonly [name: string, value: string | number]>;

/** The server reads lines into a 512-byte buffer and drops the session on a longer one (spec §1.6). */
export const MAX_REQUEST_LINE = 510;

/** Argument-less requests already formatted (and so checked), by command. */
const plain = new Map<string, string>();

/**
 * Formats a request the way mgmapi does (spec §1.2): integers as `name: value`, strings as `name:"value"`.
 * Checked here, before anything is sent, because the server answers an over-long line or a stray newline by
 * closing the session or by misreading the following lines as commands.
 */
export function formatRequest(command: string, args: RequestArgs = []): string {
  // A poll sends the same few argument-less commands over and over; their text is checked once.
  if (args.length === 0) {
    const known = plain.get(command);
    if (known !== undefined) return known;
  }
  const lines = [command];
  for (const [name, value] of args) {
    if (typeof value === 'number' && !Number.isInteger(value)) {
      throw new ProtocolError(`argument ${name} of "${command}" is not an integer`, String(value));
    }
    lines.push(typeof value === 'number' ? `${name}: ${value}` : `${name}:"${value}"`);
  }
  for (const line of lines) {
    if (/[\r\n]/.test(line)) throw new ProtocolError(`request "${command}" contains a line break`);
    if (Buffer.byteLength(line) > MAX_REQUEST_LINE) {
      throw new ProtocolError(`request line of "${command}" too long`, `${Buffer.byteLength(line)} > ${MAX_REQUEST_LINE} bytes`);
    }
  }
  const text = `${lines.join('\n')}\n\n`;
  if (args.length === 0 && plain.size < 64) plain.set(command, text);
  return text;
}
