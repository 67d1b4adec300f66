import { AuthorizationError, CommandFailedError, ProtocolError, ServerParserError, UnexpectedReplyError } from '../../errors.js';
import type { Pairs, Reply } from '../frames.js';

/** A strict decimal (optional minus, digits only) as a safe integer, else null. Allocates nothing. */
export function parseDecimal(value: string): number | null {
  const len = value.length;
  const negative = len > 1 && value.charCodeAt(0) === MINUS;
  if (len === 0) return null;
  let n = 0;
  for (let i = negative ? 1 : 0; i < len; i++) {
    const digit = value.charCodeAt(i) - ZERO;
    if (digit < 0 || digit > 9) return null;
    n = n * 10 + digit;
  }
  return Number.isSafeInteger(n) ? (negative ? -n : n) : null;
}

/** parseDecimal of the bytes `b[start, end)`, read where a line lies in the reader's buffer. */
export function parseDecimalAt(b: Uint8Array, start: number, end: number): number | null {
  const negative = end - start > 1 && b[start] === MINUS;
  if (end === start) return null;
  let n = 0;
  for (let i = negative ? start + 1 : start; i < end; i++) {
    const digit = (b[i] as number) - ZERO;
    if (digit < 0 || digit > 9) return null;
    n = n * 10 + digit;
  }
  return Number.isSafeInteger(n) ? (negative ? -n : n) : null;
}

const MINUS = 45;
const ZERO = 48;

/**
 * Strict decimal as the server prints with %d/%u; sscanf-style leniency would hide a corrupt reply. Hot paths
 * (`get status` of a large cluster: some 2,000 numbers per poll) pass `what` as a function, so the error text
 * is only built when there is an error.
 */
export function parseIntStrict(value: string, what: string | (() => string)): number {
  const n = parseDecimal(value);
  if (n === null) {
    const label = typeof what === 'string' ? what : what();
    throw new ProtocolError(/^-?\d+$/.test(value) ? `${label} out of range` : `${label} is not an integer`, JSON.stringify(value));
  }
  return n;
}

/** Typed access to the key lines of one reply, with errors that name the command and key. */
export class ReplyFields {
  constructor(
    readonly command: string,
    readonly pairs: Pairs,
  ) {}

  has(key: string): boolean {
    return this.optStr(key) !== undefined;
  }

  /** A linear scan: replies are a handful of keys, except `get status`, which only looks up its first. */
  optStr(key: string): string | undefined {
    for (const [k, v] of this.pairs) if (k === key) return v;
    return undefined;
  }

  str(key: string): string {
    const v = this.optStr(key);
    if (v === undefined) throw new ProtocolError(`"${this.command}" reply lacks "${key}"`);
    return v;
  }

  int(key: string): number {
    return parseIntStrict(this.str(key), `"${key}" in "${this.command}" reply`);
  }

  optInt(key: string): number | null {
    return this.has(key) ? this.int(key) : null;
  }

  /** Throws CommandFailedError with the server's text unless `result` is the command's success word. */
  expectResult(success = 'Ok'): this {
    const result = this.str('result');
    if (result !== success) throw new CommandFailedError(this.command, result);
    return this;
  }
}

/** Unwraps a framed reply, turning the header-less error replies into their typed errors. */
export function acceptReply(reply: Reply, command: string): { fields: ReplyFields; reply: Extract<Reply, { kind: 'reply' }> } {
  if (reply.kind === 'parser-error') throw new ServerParserError(reply.message);
  if (reply.kind === 'auth-failed') throw new AuthorizationError(reply.message);
  if (reply.kind === 'unexpected') throw new UnexpectedReplyError(command, reply.lines);
  return { fields: new ReplyFields(command, reply.pairs), reply };
}
