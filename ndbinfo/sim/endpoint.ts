import type { AddressInfo, Server as NetServer } from 'node:net';
import type { ClusterModel } from '../../native-mgm/sim/index.js';
import { NdbinfoSql, type Session } from './sql/engine.js';
import { mysqlErrors, MysqlError } from './sql/mysql-error.js';
import { SCHEMAS } from './sql/schema-db.js';
import { followClientSequence, nativePasswordMatches, STATUS_AUTOCOMMIT, writeError, writeResultSet, type ServerConnection } from './wire.js';

export interface SqlEndpointOptions {
  host?: string;
  /** 0 or missing: an ephemeral port. */
  port?: number;
  user?: string;
  password?: string;
  /** What `@@version` says: a SQL node of the simulated cluster's version. */
  version: string;
}

export interface SqlEndpoint {
  readonly host: string;
  readonly port: number;
  /** Where a client connects, e.g. `mysql://root@127.0.0.1:33060` (the password, if any, is not in it). */
  readonly url: string;
  close(): Promise<void>;
}

/** LONG_PASSWORD, FOUND_ROWS, LONG_FLAG, CONNECT_WITH_DB, PROTOCOL_41, TRANSACTIONS, SECURE_CONNECTION, PLUGIN_AUTH, CONNECT_ATTRS, PLUGIN_AUTH_LENENC_CLIENT_DATA: no SSL, no compression, no multi-statements, no deprecated EOF. */
const CAPABILITIES = 0x1 | 0x2 | 0x4 | 0x8 | 0x200 | 0x2000 | 0x8000 | 0x80000 | 0x100000 | 0x200000;
const UTF8MB4_GENERAL_CI = 45;

interface AuthInfo {
  user: string;
  database?: string;
  authPluginData1: Buffer;
  authPluginData2: Buffer;
  authToken: Buffer;
}

/**
 * A MySQL-protocol endpoint over the simulator's ndbinfo (mysql2's server side: mysql_native_password handshake,
 * text result sets). One account, `user` with `password` (root with none by default); statements are answered by
 * `NdbinfoSql` and its errors go out with MySQL's codes and SQLSTATEs.
 */
export async function startSqlEndpoint(model: ClusterModel, options: SqlEndpointOptions): Promise<SqlEndpoint> {
  const host = options.host ?? '127.0.0.1';
  const account = { user: options.user ?? 'root', password: options.password ?? '' };
  const sql = await NdbinfoSql.create(model, options.version);
  // mysql2 is loaded only where a simulated SQL node runs: most commands never need it.
  const { default: mysql } = await import('mysql2');
  const sockets = new Set<ServerConnection['stream']>();
  let nextId = 1;

  const server = mysql.createServer((c: unknown) => {
    const conn = c as ServerConnection;
    sockets.add(conn.stream);
    followClientSequence(conn);
    const session: Session = { database: null, user: account.user, host: conn.stream.remoteAddress ?? host, connectionId: nextId++ };
    const fail = (err: unknown): void => writeError(conn, err instanceof MysqlError ? err : mysqlErrors.other((err as Error).message));
    // Answers go out in the order the commands came: NdbinfoSql runs statements in turn, and a connection's writes
    // are chained so a short answer (or an error) never overtakes a long one still being written.
    let writing = Promise.resolve();
    const inOrder = (write: () => Promise<void> | void): void => {
      writing = writing.then(async () => {
        try {
          if (!conn.stream.destroyed) await write();
        } catch (err) {
          if (!conn.stream.destroyed) fail(err);
        }
      });
    };
    const run = (text: string): void => {
      const outcome = sql.execute(text, session);
      // Its failure is written in turn below; until then it must not count as unhandled.
      outcome.catch(() => undefined);
      inOrder(async () => {
        const o = await outcome;
        if (o.kind === 'ok') conn.writeOk({ serverStatus: STATUS_AUTOCOMMIT });
        else await writeResultSet(conn, o.result.columns, o.result.rows);
      });
    };
    conn.serverHandshake({
      protocolVersion: 10,
      serverVersion: options.version,
      connectionId: session.connectionId,
      statusFlags: STATUS_AUTOCOMMIT,
      characterSet: UTF8MB4_GENERAL_CI,
      capabilityFlags: CAPABILITIES,
      authCallback(info: AuthInfo, done: (err: null, mysqlError?: unknown) => void) {
        const token = Buffer.from(info.authToken ?? []);
        const scramble = Buffer.concat([info.authPluginData1, info.authPluginData2]);
        const host = (conn.stream.remoteAddress ?? '').replace(/^::ffff:/, '');
        if (info.user !== account.user || !nativePasswordMatches(account.password, scramble, token)) {
          // MySQL's own error (mysql2's would carry no SQLSTATE), then the connection ends as the server ends it.
          writeError(conn, mysqlErrors.accessDenied(info.user, host, token.length > 0));
          conn.stream.end();
          return;
        }
        if (info.database) {
          if (!(SCHEMAS as readonly string[]).includes(info.database.toLowerCase())) {
            writeError(conn, mysqlErrors.unknownDatabase(info.database));
            conn.stream.end();
            return;
          }
          session.database = info.database.toLowerCase();
        }
        done(null);
      },
    });
    conn.on('query', (text: string) => run(text));
    // mysql2 hands a COM_QUERY that starts with SET or PREPARE to this event, as it does a COM_STMT_PREPARE.
    conn.on('stmt_prepare', (text: string) => (/^\s*set\b/i.test(text) ? run(text) : inOrder(() => fail(mysqlErrors.unsupportedPreparedStatements()))));
    conn.on('stmt_execute', () => inOrder(() => fail(mysqlErrors.unsupportedPreparedStatements())));
    conn.on('init_db', (name: string) => run(`USE \`${name.replace(/`/g, '')}\``));
    conn.on('field_list', () => inOrder(() => conn.writeEof(0, STATUS_AUTOCOMMIT)));
    conn.on('quit', () => conn.stream.end());
    conn.on('packet', (_p: never, known: boolean) => {
      if (!known) inOrder(() => fail(mysqlErrors.unknownCommand()));
    });
    conn.on('error', () => conn.stream.destroy());
    conn.on('end', () => sockets.delete(conn.stream));
  });
  const net = (server as unknown as { _server: NetServer })._server;
  await new Promise<void>((resolve, reject) => {
    net.once('error', reject);
    net.listen(options.port ?? 0, host, () => {
      net.off('error', reject);
      resolve();
    });
  }).catch(async (err: unknown) => {
    await sql.close();
    throw err;
  });
  const port = (net.address() as AddressInfo).port;
  sql.listening(port);

  return {
    host,
    port,
    url: `mysql://${encodeURIComponent(account.user)}@${host.includes(':') ? `[${host}]` : host}:${port}`,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sql.close();
    },
  };
}
