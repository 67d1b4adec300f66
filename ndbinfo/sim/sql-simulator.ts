import { startSimulator, type Simulator, type SimulatorOptions } from '../../native-mgm/sim/index.js';
import { decodeVersion } from '../../native-mgm/version.js';
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

/** The version string of a SQL node of the simulated cluster, as `SELECT @@version` gives it (e.g. `8.4.3-cluster`). */
export function sqlNodeVersion(sim: Simulator): string {
  return `${decodeVersion(sim.model.version) ?? '8.4.3'}-cluster`;
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
