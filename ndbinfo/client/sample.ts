import type { CounterRates } from './counter-rates.js';
import { NdbinfoError } from './errors.js';
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
 * Runs one reading on the session. A table that went away since discovery (an SQL node downgraded in place) is
 * reported as missing rather than as a broken connection.
 */
export async function runReading<K extends ReadingKey>(session: SqlSession, reading: ReadingDef<K>, rates: CounterRates): Promise<Sample<K>> {
  const query = reading.query(session.present);
  let result;
  try {
    result = await session.conn.query(query.sql);
  } catch (err) {
    const cause = err instanceof NdbinfoError ? err.cause : undefined;
    if ((cause as { errno?: number } | undefined)?.errno === ER_NO_SUCH_TABLE) throw new NdbinfoError('NO_NDBINFO', `${session.conn.address.display}: ndbinfo.${reading.table} no longer exists`, { cause: err });
    throw err;
  }
  const rows = buildRows(reading, query, result.rows, { rates, at: result.at });
  return { reading: reading.key, sqlNode: session.conn.address.display, at: result.at, durationMs: result.durationMs, rows };
}

/** The readings whose tables the session has. */
export function readingsOf(session: SqlSession): ReadingDef[] {
  return READINGS.filter((r) => session.present.has(r.table));
}
