import { DISCOVERY_MAX_ROWS, MAX_ANSWER_BYTES } from './answer-limits.js';
import { classify, NdbinfoError, noNdbinfo, secretsOf, type NdbinfoErrorCode } from './errors.js';
import { READINGS } from './readings.js';
import { SqlConnection, type SqlConnectOptions } from './sql-connection.js';
import type { SqlNodeAddress } from './sql-url.js';

/** Every table a reading needs, plus `threads` (the thread names joined into `cpustat`). */
export const WANTED_TABLES: readonly string[] = [...new Set([...READINGS.map((r) => r.table), 'threads'])];

/** A connection known to serve ndbinfo, with the tables it has. */
export interface SqlSession {
  readonly conn: SqlConnection;
  /** Index of the SQL node in the list given. */
  readonly index: number;
  /** The wanted tables the server has, and those it lacks (a note for the user, never an error). */
  readonly present: ReadonlySet<string>;
  readonly missing: readonly string[];
}

/**
 * Which ndbinfo tables exist, once per connection. No ndbinfo table at all means no ndbinfo schema the user can
 * see: a plain MySQL, ndbinfo disabled, or no privilege on it, which is the same to a monitor.
 */
async function discover(conn: SqlConnection): Promise<Pick<SqlSession, 'present' | 'missing'>> {
  const limit = { what: 'information_schema.TABLES', maxRows: DISCOVERY_MAX_ROWS, maxBytes: MAX_ANSWER_BYTES };
  const { rows: names } = await conn.query("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'ndbinfo'", limit, (r) => String((r as unknown[])[0]).toLowerCase());
  if (names.length === 0) throw noNdbinfo(conn.address.display);
  return { present: new Set(WANTED_TABLES.filter((t) => names.includes(t))), missing: WANTED_TABLES.filter((t) => !names.includes(t)) };
}

/** Failures that say something about the setup rather than the network: they decide the error when all fail. */
const TELLING: readonly NdbinfoErrorCode[] = ['ACCESS_DENIED', 'NO_NDBINFO', 'TLS', 'MALFORMED', 'QUERY_FAILED'];

/** All SQL nodes failed: one error naming each, whose code is the most telling failure's (else the first's). */
export function allFailed(failures: readonly NdbinfoError[]): NdbinfoError {
  if (failures.length === 1) return failures[0] as NdbinfoError;
  const telling = failures.find((f) => TELLING.includes(f.code)) ?? failures[0];
  return new NdbinfoError(telling?.code ?? 'UNREACHABLE', `no SQL node usable: ${failures.map((f) => f.message).join('; ')}`);
}

/**
 * Tries the SQL nodes in order from `start` (wrapping round), each once: connect, authenticate, find the tables.
 * `onFailure` hears each one that failed, so the source can report it before it tries the next.
 */
export async function dialFirstUsable(
  addresses: readonly SqlNodeAddress[],
  start: number,
  password: string | undefined,
  options: SqlConnectOptions,
  onFailure: (index: number, err: NdbinfoError) => void = () => undefined,
): Promise<SqlSession> {
  const failures: NdbinfoError[] = [];
  for (let i = 0; i < addresses.length; i += 1) {
    const index = (start + i) % addresses.length;
    const address = addresses[index] as SqlNodeAddress;
    let conn: SqlConnection | undefined;
    try {
      conn = await SqlConnection.open(address, password, options);
      return { conn, index, ...(await discover(conn)) };
    } catch (err) {
      conn?.close();
      const failure = classify(err, address.display, secretsOf(password, ...(options.secrets ?? [])), options.connectTimeoutMs);
      failures.push(failure);
      onFailure(index, failure);
    }
  }
  throw allFailed(failures);
}
