import { replaceControlChars } from './control-chars.js';

/**
 * Every failure native-mgm reports is one of these classes, so callers (engine, CLI) can branch on `code`
 * and map it to an exit code or a UI message without parsing text.
 */
export type MgmErrorCode =
  | 'BAD_CONNECTSTRING'
  | 'UNREACHABLE'
  | 'TIMEOUT'
  | 'CLOSED'
  | 'ABORTED'
  | 'PROTOCOL'
  | 'SERVER_PARSER_ERROR'
  | 'AUTH_REQUIRED'
  | 'COMMAND_FAILED'
  | 'UNEXPECTED_REPLY'
  | 'TLS';

export class MgmError extends Error {
  readonly code: MgmErrorCode;
  constructor(code: MgmErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** The connectstring does not parse; `position` is the 0-based character offset of the offending item. */
export class ConnectstringError extends MgmError {
  constructor(
    message: string,
    readonly input: string,
    readonly position: number,
  ) {
    super('BAD_CONNECTSTRING', message);
  }
}

/** No management server in the list accepted a connection. `attempts` says why each one failed. */
export class UnreachableError extends MgmError {
  constructor(readonly attempts: ReadonlyArray<{ host: string; port: number; error: string }>) {
    super(
      'UNREACHABLE',
      `no management server reachable: ${attempts.map((a) => `${formatHostPort(a.host, a.port)} (${a.error})`).join(', ')}`,
    );
  }
}

export class TimeoutError extends MgmError {
  constructor(what: string, readonly ms: number) {
    super('TIMEOUT', `${what} timed out after ${ms} ms`);
  }
}

export class ConnectionClosedError extends MgmError {
  constructor(message = 'connection to the management server closed') {
    super('CLOSED', message);
  }
}

export class AbortedError extends MgmError {
  constructor(what = 'operation') {
    super('ABORTED', `${what} was cancelled`);
  }
}

/** The server sent bytes that do not fit the protocol (bad framing, wrong header, over-long line, …). */
export class ProtocolError extends MgmError {
  /** What was wrong, without the offending bytes (`detail` quotes what the server sent). */
  readonly brief: string;
  constructor(message: string, readonly detail?: string) {
    super('PROTOCOL', detail === undefined ? message : `${message}: ${detail}`);
    this.brief = message;
  }
}

/** The server's request parser refused our request (`result: Unknown command, 'x'` and friends, spec §1.4). */
export class ServerParserError extends MgmError {
  constructor(readonly serverMessage: string) {
    super('SERVER_PARSER_ERROR', `management server rejected the request: ${serverMessage}`);
  }
}

export class AuthorizationError extends MgmError {
  constructor(readonly serverMessage: string) {
    super('AUTH_REQUIRED', `management server refused the command: ${serverMessage}`);
  }
}

/** The most of a server's own sentence that is shown (the pattern that lets it through bounds its characters). */
const SENTENCE_MAX = 160;

/**
 * The server answered a request with a sentence of its own instead of the reply (one waiting for arbitrator
 * selection while it starts, say: the spec gives no such text). The session goes on; `lines` are its words.
 */
export class UnexpectedReplyError extends MgmError {
  readonly sentence: string;
  constructor(
    readonly command: string,
    readonly lines: readonly string[],
  ) {
    const sentence = lines.join(' ').slice(0, SENTENCE_MAX);
    super('UNEXPECTED_REPLY', `the management server answered "${command}" with "${sentence}" instead of its reply`);
    this.sentence = sentence;
  }
}

/** Why securing a session failed (spec §9); each reason gets its own message, the CLI one exit code. */
export type TlsFailure =
  | 'NO_CERTIFICATE'
  | 'CERT_EXPIRED'
  | 'CERT_NOT_YET_VALID'
  | 'CA_MISMATCH'
  | 'SERVER_WITHOUT_TLS'
  | 'SERVER_TOO_OLD'
  | 'HOSTNAME_MISMATCH'
  | 'HANDSHAKE'
  | 'BAD_FILE';

/** TLS could not be set up; the session was closed, never continued in clear text. */
export class TlsError extends MgmError {
  constructor(
    readonly reason: TlsFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('TLS', message, options);
  }
}

/** The command was understood but failed; `result` is the server's text, shown to the user as it is. */
export class CommandFailedError extends MgmError {
  constructor(
    readonly command: string,
    readonly result: string,
  ) {
    super('COMMAND_FAILED', `${command}: ${result}`);
  }
}

export function formatHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** A configuration body that cannot be decoded (spec §4.18.1); `reason` names what was wrong and where. */
export class ConfigFormatError extends ProtocolError {
  constructor(readonly reason: string) {
    super('unusable configuration', reason);
  }
}

const SAFE_TEXT_MAX = 300;

/**
 * Why something failed, in words that never carry bytes the server sent: for connection states, dashboards and
 * anything a remote viewer of `serve` reads (a server's reply quoted back would turn ndbtop into a port scanner
 * that shows what answers there). The full message, details included, stays on the thrown error.
 */
export function safeErrorText(err: unknown): string {
  let text: string;
  if (err instanceof ProtocolError) text = `protocol error: ${err.brief}`;
  else if (err instanceof ServerParserError) text = 'the management server did not understand a request';
  else if (err instanceof AuthorizationError) text = 'the management server refused a command: it requires TLS and this session has none';
  else if (err instanceof CommandFailedError) text = `the management server refused "${err.command}"`;
  // Only a plain sentence gets here (letters first, no banner of another protocol): it is what the operator must see.
  else if (err instanceof UnexpectedReplyError) text = err.message;
  else text = err instanceof Error ? err.message : String(err);
  // Our own texts never hold control characters; whatever else slipped in must not reach a terminal or a page.
  const clean = replaceControlChars(text, () => ' ');
  return clean.length > SAFE_TEXT_MAX ? `${clean.slice(0, SAFE_TEXT_MAX - 1)}…` : clean;
}
