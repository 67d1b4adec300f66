import { MAX_ANSWER_BYTES, rowLimit, type ClusterShape } from './answer-limits.js';
import type { CounterRates } from './counter-rates.js';
import { NdbinfoError } from './errors.js';
import { readRow } from './parse-row.js';
import { buildRows, READINGS, type ReadingDef } from './readings.js';
import type { ReadingKey, ReadingRows } from './rows.js';
import type { SqlSession } from './dial.js';

/** One reading's answer: every row was observed at `at`. */
export interface Sample<K extends ReadingKey = ReadingKey> {
  readonly reading: K;
  /** The SQL node that answered (its URL without password). */
  readonly sqlNode: string;
  readonly at: number;
  /** Time the SQL node took for the query (the self-load). */
  readonly durationMs: number;
  readonly rows: ReadingRows[K][];
}

const ER_NO_SUCH_TABLE = 1146;

/**
 * Runs one reading on the session, its answer bounded by the cluster's `shape` (answer-limits.ts) and each row
 * checked as it arrives. A table that went away since discovery (an SQL node downgraded in place) is reported as
 * missing rather than as a broken connection.
 */
export async function runReading<K extends ReadingKey>(session: SqlSession, reading: ReadingDef<K>, rates: CounterRates, shape: ClusterShape | null): Promise<Sample<K>> {
  const query = reading.query(session);
  const { conn } = session;
  const limit = { what: `ndbinfo.${reading.table}`, maxRows: rowLimit(reading.rowsPerNode, shape), maxBytes: MAX_ANSWER_BYTES };
  let result;
  try {
    result = await conn.query(query.sql, limit, (row) => readRow(query.table, query.columns, row, conn.secrets));
  } catch (err) {
    const cause = err instanceof NdbinfoError ? err.cause : undefined;
    if ((cause as { errno?: number } | undefined)?.errno === ER_NO_SUCH_TABLE) throw new NdbinfoError('NO_NDBINFO', `${session.conn.address.display}: ndbinfo.${reading.table} no longer exists`, { cause: err });
    throw err;
  }
  const rows = buildRows(reading, result.rows, { rates, at: result.at });
  return { reading: reading.key, sqlNode: session.conn.address.display, at: result.at, durationMs: result.durationMs, rows };
}

/** The readings whose tables (and the columns they need) the session has. */
export function readingsOf(session: SqlSession): ReadingDef[] {
  return READINGS.filter((r) => session.present.has(r.table) && (r.needs ?? []).every((c) => session.columns.get(r.table)?.has(c) !== false));
}
