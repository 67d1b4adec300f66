import type { AddressInfo, Server as NetServer } from 'node:net';
import { createServer } from 'mysql2';
import { NDBINFO_TABLES, type ColumnDef } from '../schema/tables.js';
import type { MysqlError } from '../sim/sql/mysql-error.js';
import { resultColumn, type ResultColumn } from '../sim/sql/result-columns.js';
import { followClientSequence, STATUS_AUTOCOMMIT, writeError, type ServerConnection } from '../sim/wire.js';

type Cell = string | null;

/** How the hostile SQL node answers one query (every query but the discovery of the ndbinfo tables and their columns). */
export type Reply =
  /** `count` rows made by `row(i)`, written as fast as the client reads them (never all buffered at once). */
  | { kind: 'rows'; columns: ResultColumn[]; count: number; row: (i: number) => Cell[] }
  | { kind: 'error'; error: MysqlError }
  /** Never answers. */
  | { kind: 'silent' };

export interface HostileSqlNode {
  readonly url: string;
  /** Rows written so far, over every answer: how far the server got before the client cut it off. */
  readonly written: number;
  /** Connections accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

/** The result columns of `table` as a MySQL server declares them (tables.ts kinds), plus `extra` text columns. */
export function columnsOf(table: string, extra: readonly string[] = []): ResultColumn[] {
  const def = NDBINFO_TABLES.find((t) => t.name === table);
  if (!def) throw new Error(`no table ${table}`);
  const declared = (c: ColumnDef): string => (c.kind === 'string' ? 'VARCHAR(512)' : c.kind === 'int' ? 'UNSIGNED32' : 'UNSIGNED64');
  return [...def.columns.map((c) => resultColumn(c.name, declared(c), [], 'ndbinfo')), ...extra.map((name) => resultColumn(name, 'VARCHAR(512)', [], 'ndbinfo'))];
}

/** A cpustat row (joined with its thread name) of node `node`, thread `thr`: 10 % busy. */
export function cpuRow(node: number | string, thr: number, name: string): Cell[] {
  return [String(node), String(thr), '5', '1', '94', '10', '90', '0', '0', '0', '1000000', name];
}

/**
 * An SQL node that speaks the MySQL protocol for real (mysql2's server side, as the simulator's endpoint) and answers
 * as `reply` says: the hostile or broken server the SQL source must survive. It logs in anyone (no password),
 * says it has the ndbinfo tables `tables`, and answers every other query with `reply(sql)`.
 */
export async function startHostileSqlNode(reply: (sql: string) => Reply, tables: readonly string[] = ['cpustat', 'threads']): Promise<HostileSqlNode> {
  const sockets = new Set<ServerConnection['stream']>();
  let written = 0;
  let connections = 0;
  const answer = async (conn: ServerConnection, r: Reply): Promise<void> => {
    if (r.kind === 'silent') return;
    if (r.kind === 'error') return writeError(conn, r.error);
    const socket = conn.stream as unknown as NodeJS.WritableStream & { destroyed: boolean; writableNeedDrain: boolean };
    conn.writeColumns(r.columns);
    for (let i = 0; i < r.count; i += 1) {
      if (socket.destroyed) return;
      conn.writeTextRow(r.row(i) as never);
      written += 1;
      if (socket.writableNeedDrain) await new Promise<void>((resolve) => {
        const done = (): void => {
          socket.off('drain', done);
          socket.off('close', done);
          resolve();
        };
        socket.once('drain', done);
        socket.once('close', done);
      });
    }
    if (!socket.destroyed) conn.writeEof(0, STATUS_AUTOCOMMIT);
  };
  const server = createServer((c: unknown) => {
    const conn = c as ServerConnection;
    connections += 1;
    sockets.add(conn.stream);
    followClientSequence(conn);
    conn.serverHandshake({ protocolVersion: 10, serverVersion: '8.4.3-cluster', connectionId: connections, statusFlags: STATUS_AUTOCOMMIT, characterSet: 45, capabilityFlags: 0xf7ff, authCallback: (_: unknown, done: (e: null) => void) => done(null) });
    conn.on('query', (sql: string) => {
      if (/information_schema\.TABLES/i.test(sql)) {
        void answer(conn, { kind: 'rows', columns: [resultColumn('TABLE_NAME', 'VARCHAR(64)', [], 'information_schema')], count: tables.length, row: (i) => [tables[i] ?? ''] });
      } else if (/information_schema\.COLUMNS/i.test(sql)) {
        // The discovery's second step: every column tables.ts gives the tables it says it has.
        const columns = tables.flatMap((t) => (NDBINFO_TABLES.find((d) => d.name === t)?.columns ?? []).map((c) => [t, c.name]));
        const names = ['TABLE_NAME', 'COLUMN_NAME'].map((n) => resultColumn(n, 'VARCHAR(64)', [], 'information_schema'));
        void answer(conn, { kind: 'rows', columns: names, count: columns.length, row: (i) => columns[i] ?? ['', ''] });
      } else void answer(conn, reply(sql));
    });
    conn.on('error', () => conn.stream.destroy());
    conn.on('end', () => sockets.delete(conn.stream));
  });
  const net = (server as unknown as { _server: NetServer })._server;
  await new Promise<void>((resolve) => net.listen(0, '127.0.0.1', resolve));
  const port = (net.address() as AddressInfo).port;
  return {
    url: `mysql://u@127.0.0.1:${port}`,
    get written() {
      return written;
    },
    get connections() {
      return connections;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
