import { DISCOVERY_MAX_ROWS, MAX_ANSWER_BYTES } from './answer-limits.js';
import { classify, NdbinfoError, noNdbinfo, secretsOf, type NdbinfoErrorCode } from './errors.js';
import { READINGS } from './readings.js';
import { ndbinfoTable } from '../schema/tables.js';
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
  /** The columns each present wanted table has, lower case (newer releases add some: a reading asks only for those). */
  readonly columns: ReadonlyMap<string, ReadonlySet<string>>;
  /** Columns of present wanted tables that this SQL node lacks, as `table.column`. */
  readonly absentColumns: readonly string[];
}

/**
 * Which ndbinfo tables exist, once per connection. No ndbinfo table at all means no ndbinfo schema the user can
 * see: a plain MySQL, ndbinfo disabled, or no privilege on it, which is the same to a monitor.
 */
async function discover(conn: SqlConnection): Promise<Omit<SqlSession, 'conn' | 'index'>> {
  const limit = { what: 'information_schema.TABLES', maxRows: DISCOVERY_MAX_ROWS, maxBytes: MAX_ANSWER_BYTES };
  const { rows: names } = await conn.query("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'ndbinfo'", limit, (r) => String((r as unknown[])[0]).toLowerCase());
  if (names.length === 0) throw noNdbinfo(conn.address.display);
  const present = WANTED_TABLES.filter((t) => names.includes(t));
  const columns = await discoverColumns(conn, present);
  const absentColumns = present.flatMap((t) => (ndbinfoTable(t)?.columns ?? []).filter((c) => !columns.get(t)?.has(c.name.toLowerCase())).map((c) => `${t}.${c.name}`));
  return { present: new Set(present), missing: WANTED_TABLES.filter((t) => !names.includes(t)), columns, absentColumns };
}

/**
 * The columns of the tables found (`information_schema.COLUMNS`): a release that lacks a column a reading asks for
 * would fail the reading whole. A table whose columns cannot be listed is taken to have all of them.
 */
async function discoverColumns(conn: SqlConnection, tables: readonly string[]): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  if (tables.length === 0) return out;
  const limit = { what: 'information_schema.COLUMNS', maxRows: DISCOVERY_MAX_ROWS, maxBytes: MAX_ANSWER_BYTES };
  const list = tables.map((t) => `'${t}'`).join(', ');
  const { rows } = await conn.query(`SELECT TABLE_NAME, COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'ndbinfo' AND TABLE_NAME IN (${list})`, limit, (r) => {
    const [table, column] = r as unknown[];
    return [String(table).toLowerCase(), String(column).toLowerCase()] as const;
  });
  for (const [table, column] of rows) {
    const set = out.get(table) ?? new Set<string>();
    set.add(column);
    out.set(table, set);
  }
  for (const t of tables) if (!out.has(t)) out.set(t, new Set((ndbinfoTable(t)?.columns ?? []).map((c) => c.name.toLowerCase())));
  return out;
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
