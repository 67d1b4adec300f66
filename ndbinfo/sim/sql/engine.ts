import type { Database } from 'sql.js';
import type { ClusterModel } from '../../../native-mgm/sim/index.js';
import { NdbinfoSnapshot } from '../snapshot.js';
import { createSchemaDatabase } from './schema-db.js';
import { tablesAt, type NdbRelease } from '../../schema/versions.js';
import { runSelect, type ResultSet } from './select.js';
import { classify } from './statements.js';
import { resultColumn } from './result-columns.js';
import { sysvarFunction, systemVariables } from './sysvars.js';
import { TimeSlice } from './time-slice.js';

/** A client connection's state that statements read and change. */
export interface Session {
  database: string | null;
  readonly user: string;
  readonly host: string;
  readonly connectionId: number;
}

export type Outcome = { kind: 'ok' } | { kind: 'result'; result: ResultSet };

/** Turns a `LIKE` pattern into a test (MySQL's `%` and `_`, case-insensitive for variable names). */
function likeTest(pattern: string | null): (s: string) => boolean {
  if (pattern === null) return () => true;
  const re = new RegExp(`^${pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%/g, '.*').replace(/_/g, '.')}$`, 'i');
  return (s) => re.test(s);
}

/**
 * The SQL side of the simulator's ndbinfo: MySQL statements answered over SQLite tables filled from the cluster
 * model. Statements fail with MysqlError and the server's codes. The session whose statement runs is the one the
 * SQL functions (DATABASE(), USER(), CONNECTION_ID()) answer for; statements run one at a time, in the order they
 * came, each cut into time slices (TimeSlice) so the process hosting the SQL node keeps turning.
 */
export class NdbinfoSql {
  private current: Session | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly db: Database,
    private readonly snapshot: NdbinfoSnapshot,
    private readonly vars: Map<string, string | number>,
  ) {}

  /** `port` is what `@@port` says until `listening` tells the one really bound. */
  static async create(model: ClusterModel, version: string, port = 0): Promise<NdbinfoSql> {
    const vars = systemVariables(version, port);
    // The SQL node runs the cluster's release: its ndbinfo has the tables and columns that release has.
    const v = model.version;
    const tables = tablesAt({ major: (v >>> 16) & 0xff, minor: (v >>> 8) & 0xff, build: v & 0xff } satisfies NdbRelease);
    let engine: NdbinfoSql | null = null;
    const session = (): Session | null => engine?.current ?? null;
    const db = await createSchemaDatabase(tables, {
      sysvar: sysvarFunction(vars),
      database: () => session()?.database ?? null,
      schema: () => session()?.database ?? null,
      version: () => version,
      connection_id: () => session()?.connectionId ?? 0,
      user: () => `${session()?.user ?? ''}@${session()?.host ?? ''}`,
      current_user: () => `${session()?.user ?? ''}@%`,
      now: () => new Date().toISOString().slice(0, 19).replace('T', ' '),
    });
    engine = new NdbinfoSql(db, new NdbinfoSnapshot(db, model, tables), vars);
    return engine;
  }

  listening(port: number): void {
    this.vars.set('port', port);
  }

  execute(text: string, session: Session): Promise<Outcome> {
    const outcome = this.queue.then(() => this.run(text, session));
    this.queue = outcome.catch(() => undefined);
    return outcome;
  }

  private async run(text: string, session: Session): Promise<Outcome> {
    const statement = classify(text, session.database);
    switch (statement.kind) {
      case 'ok':
        return { kind: 'ok' };
      case 'use':
        session.database = statement.database;
        return { kind: 'ok' };
      case 'variables': {
        const like = likeTest(statement.like);
        const rows = [...this.vars].filter(([k]) => like(k)).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, String(v)]);
        return { kind: 'result', result: { columns: ['Variable_name', 'Value'].map((n) => resultColumn(n, 'VARCHAR(1024)', [], '')), rows } };
      }
      case 'select': {
        const slice = new TimeSlice();
        await this.snapshot.prepare(statement.sql, slice);
        this.current = session;
        try {
          return { kind: 'result', result: await runSelect(this.db, statement.sql, session.database, slice) };
        } finally {
          this.current = null;
        }
      }
    }
  }

  /** Closes the database once the statements already queued have run. */
  async close(): Promise<void> {
    await this.queue;
    this.db.close();
  }
}
