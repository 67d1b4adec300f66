import { CounterRates } from './counter-rates.js';
import { dialFirstUsable } from './dial.js';
import type { ReadingKey } from './rows.js';
import { readingsOf, runReading, type Sample } from './sample.js';
import type { SqlConnectOptions } from './sql-connection.js';
import type { SqlNodeAddress } from './sql-url.js';

/** Every reading once, from the first usable SQL node: what `ndbtop ndbinfo` prints. */
export interface NdbinfoSnapshot {
  readonly sqlNode: string;
  readonly serverVersion: string;
  readonly tls: boolean;
  /** The wanted tables the SQL node has, and those it lacks. */
  readonly tables: readonly string[];
  readonly missing: readonly string[];
  /** Columns of its tables it lacks, as `table.column` (an older release). */
  readonly absentColumns: readonly string[];
  readonly samples: { readonly [K in ReadingKey]?: Sample<K> };
}

/**
 * Connects (trying the SQL nodes in order), reads each table once, one query after the other on the one
 * connection, and closes. Counters need two readings for a rate, so a snapshot's `perSec` fields are null.
 */
export async function readOnce(addresses: readonly SqlNodeAddress[], password: string | undefined, options: SqlConnectOptions, signal?: AbortSignal): Promise<NdbinfoSnapshot> {
  const session = await dialFirstUsable(addresses, 0, password, options);
  // A deadline that passes mid-read ends the connection, which fails the query under way.
  const abort = (): void => session.conn.close();
  if (signal?.aborted) abort();
  signal?.addEventListener('abort', abort, { once: true });
  try {
    const rates = new CounterRates();
    const samples: Record<string, Sample> = {};
    // No management server here to say the cluster's shape: each answer is bounded as for the largest cluster.
    for (const reading of readingsOf(session)) samples[reading.key] = await runReading(session, reading, rates, null);
    const { conn } = session;
    return { sqlNode: conn.address.display, serverVersion: conn.serverVersion, tls: conn.tls, tables: [...session.present], missing: session.missing, absentColumns: session.absentColumns, samples };
  } finally {
    signal?.removeEventListener('abort', abort);
    session.conn.close();
  }
}
