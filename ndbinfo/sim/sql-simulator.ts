import { startSimulator, type Simulator, type SimulatorOptions } from '../../native-mgm/sim/index.js';
import { decodeVersion, mysqlVersionOf } from '../../native-mgm/version.js';
import { startSqlEndpoint, type SqlEndpoint } from './endpoint.js';

export interface SqlOptions {
  /** 0: an ephemeral port. */
  port: number;
  user?: string;
  password?: string;
}

export interface SqlSimulator extends Simulator {
  /** The SQL node's ndbinfo endpoint, or null when it was not asked for. */
  readonly sql: SqlEndpoint | null;
}

/**
 * The version string of a SQL node of the simulated cluster, as `SELECT @@version` gives it: `8.4.3-cluster` from
 * 8.0 on, `5.7.36-ndb-7.6.36` for 7.x, whose MySQL and NDB numbers differ (spec §4.1; the MySQL build is the
 * simulator's choice, `mysqlVersionOf`).
 */
export function sqlNodeVersion(sim: Simulator): string {
  const ndb = sim.model.version;
  const mysql = mysqlVersionOf(ndb);
  return mysql === ndb ? `${decodeVersion(ndb) ?? '8.4.3'}-cluster` : `${decodeVersion(mysql) ?? ''}-ndb-${decodeVersion(ndb) ?? ''}`;
}

/**
 * The simulator with a SQL node's ndbinfo beside its management servers, both over the one cluster model. (The
 * simulator itself is native-mgm's, which does not depend on the SQL side; this is where the two meet.)
 */
export async function startSqlSimulator(options: SimulatorOptions & { sql?: SqlOptions }): Promise<SqlSimulator> {
  const { sql: sqlOptions, ...simOptions } = options;
  const sim = await startSimulator(simOptions);
  let sql: SqlEndpoint | null = null;
  if (sqlOptions) {
    try {
      sql = await startSqlEndpoint(sim.model, { host: simOptions.host ?? '127.0.0.1', ...sqlOptions, version: sqlNodeVersion(sim) });
    } catch (err) {
      await sim.close();
      throw err;
    }
  }
  return Object.assign(Object.create(sim) as Simulator, {
    sql,
    async close() {
      await sql?.close();
      await sim.close();
    },
  });
}
