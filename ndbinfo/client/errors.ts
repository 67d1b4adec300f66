/**
 * Every failure the SQL source reports is one of these, so the engine and the CLI branch on `code` (connection
 * state, exit code) without parsing text. Messages never contain the password: they are built here from what
 * the driver said, and `scrub` removes the password (and every other secret ndbtop holds) should a server or driver
 * ever echo it.
 */
export type NdbinfoErrorCode =
  | 'BAD_URL'
  | 'NO_PASSWORD'
  | 'UNKNOWN_HOST'
  | 'UNREACHABLE'
  | 'TIMEOUT'
  | 'ACCESS_DENIED'
  | 'NO_NDBINFO'
  | 'TLS'
  | 'MALFORMED'
  | 'LOST'
  | 'QUERY_FAILED'
  | 'CLOSED'
  /** An answer passed its row or byte limit: the connection was cut there. */
  | 'TOO_LARGE'
  /** The server asked for the password in a way only a server that proved itself may (see auth-plugins.ts). */
  | 'UNSAFE_AUTH';

export class NdbinfoError extends Error {
  readonly code: NdbinfoErrorCode;
  constructor(code: NdbinfoErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** A value the server sent does not fit its column: names the table and column, never crashes the reader. */
export class MalformedRowError extends NdbinfoError {
  constructor(
    readonly table: string,
    readonly column: string,
    readonly detail: string,
  ) {
    super('MALFORMED', `ndbinfo.${table}.${column}: ${detail}`);
  }
}

/** Server error numbers the source tells apart (mysqld's include/mysqld_ername.h; the same in MariaDB). */
const ER_DBACCESS_DENIED = 1044;
const ER_ACCESS_DENIED = 1045;
const ER_BAD_DB = 1049;
const ER_TABLEACCESS_DENIED = 1142;
const ER_SECURE_TRANSPORT_REQUIRED = 3159;

interface DriverError {
  code?: string;
  errno?: number;
  sqlMessage?: string;
  message?: string;
}

/** The secrets ndbtop holds (the SQL password, serve's token): no text from an SQL node may carry one out. */
export type Secrets = readonly string[];

/** The secrets among `values` that are set (an empty password is no secret: scrubbing "" would mangle every text). */
export function secretsOf(...values: ReadonlyArray<string | undefined>): Secrets {
  return values.filter((v): v is string => v !== undefined && v !== '');
}

/** From this length a secret is no ordinary text: it is replaced wherever it appears. */
const SCRUB_ANYWHERE_LENGTH = 8;
/** From this length (below the one above) a secret is replaced as a whole word; shorter ones only where secrets are written. */
const SCRUB_WORD_LENGTH = 4;

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Neither side of the secret runs on into a word ("hunter2" in "hunter2x" is another word). */
const word = (s: string): string => `(?<![\\p{L}\\p{N}_])${s}(?![\\p{L}\\p{N}_])`;

/**
 * Where a secret too short to tell from ordinary text (a one-letter password "n" is in "Unexpected") is written when
 * it leaks: quoted (`IDENTIFIED BY 'n'`, `"n"`), a connection string's credentials (`user:n@host`), a value given to
 * a key (`password=n;`).
 */
const written = (s: string): string => `(?<=(['"\`]))${s}(?=\\1)|(?<=:)${s}(?=@)|(?<==)${s}(?=$|[\\s;&,)])`;

/** Compiled once per secret: `scrub` runs on every value an SQL node sends. */
const matchers = new Map<string, RegExp>();

function matcher(secret: string): RegExp {
  let m = matchers.get(secret);
  if (!m) {
    const s = escapeRegExp(secret);
    m = new RegExp(secret.length >= SCRUB_WORD_LENGTH ? word(s) : written(s), 'gu');
    matchers.set(secret, m);
  }
  return m;
}

/**
 * `text` without any of the secrets, for anything that may be shown, logged, exported or recorded. A long secret goes
 * wherever it appears; a shorter one only where it cannot be ordinary text (see `word` and `written`), so a short
 * password does not turn "Unexpected packet" into "Une***pected packet".
 */
export function scrub(text: string, secrets: Secrets): string {
  let out = text;
  for (const s of secrets) {
    if (!out.includes(s)) continue;
    out = s.length >= SCRUB_ANYWHERE_LENGTH ? out.split(s).join('***') : out.replace(matcher(s), '***');
  }
  return out;
}

/**
 * What mysql2 (or the socket under it) reported, as one of ours. `where` names the SQL node as the user gave it
 * (`mysql://user@host:port`, never with a password); `timeoutMs` the deadline that a timeout broke.
 */
export function classify(err: unknown, where: string, secrets: Secrets, timeoutMs?: number): NdbinfoError {
  if (err instanceof NdbinfoError) return err;
  // What one of our auth plugins refused: mysql2 rewrote the code of the error it threw, so ours is its cause.
  if (err instanceof Error && err.cause instanceof NdbinfoError) return err.cause;
  const e = (typeof err === 'object' && err !== null ? err : { message: String(err) }) as DriverError;
  const server = scrub(e.sqlMessage ?? e.message ?? 'unknown error', secrets);
  const say = (code: NdbinfoErrorCode, text: string): NdbinfoError => new NdbinfoError(code, `${where}: ${text}`, { cause: err });
  switch (e.errno) {
    case ER_ACCESS_DENIED:
    case ER_DBACCESS_DENIED:
    case ER_TABLEACCESS_DENIED:
      return say('ACCESS_DENIED', `access denied (${server}); check the user in --sql (or the profile) and the password in --sql-password-file, NDBTOP_SQL_PASSWORD or the profile's stored one, and that the user may SELECT from ndbinfo`);
    case ER_BAD_DB:
      return noNdbinfo(where);
    case ER_SECURE_TRANSPORT_REQUIRED:
      return say('TLS', `the server requires TLS and the TLS session failed (${server})`);
  }
  switch (e.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return say('UNKNOWN_HOST', 'unknown host (the name does not resolve)');
    case 'ECONNREFUSED':
      return say('UNREACHABLE', 'connection refused (no MySQL server listening there)');
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ECONNRESET':
    case 'EPIPE':
      return say('UNREACHABLE', `cannot reach the server (${e.code})`);
    case 'ETIMEDOUT':
    case 'PROTOCOL_SEQUENCE_TIMEOUT':
      return say('TIMEOUT', `no answer within ${timeoutMs ?? '?'} ms`);
    case 'PROTOCOL_CONNECTION_LOST':
      return say('LOST', 'the server closed the connection');
    case 'HANDSHAKE_NO_SSL_SUPPORT':
    case 'HANDSHAKE_SSL_ERROR':
      return say('TLS', `TLS failed (${server})`);
  }
  if (/certificate|ssl|tls/i.test(e.code ?? '')) return say('TLS', `TLS failed (${server})`);
  return say('QUERY_FAILED', server);
}

export function noNdbinfo(where: string): NdbinfoError {
  return new NdbinfoError('NO_NDBINFO', `${where}: the server has no ndbinfo schema (not an SQL node of an NDB Cluster, or ndbinfo is disabled: ndbinfo=ON in its my.cnf)`);
}
