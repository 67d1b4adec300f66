import type { Connection, ConnectionOptions } from 'mysql2';
import type { AnswerLimit } from './answer-limits.js';
import { guardedAuthPlugins } from './auth-plugins.js';
import { classify, NdbinfoError, scrub, secretsOf, type Secrets } from './errors.js';
import type { SqlNodeAddress } from './sql-url.js';

export interface SqlConnectOptions {
  /** Deadline for TCP connect, handshake and authentication together. */
  connectTimeoutMs: number;
  /** Deadline per query; one that passes ends the connection (its late answer would be taken for the next one's). */
  queryTimeoutMs: number;
  /** PEM of the CA that signed the SQL node's certificate: TLS always, server verified. */
  tlsCa?: string;
  /** PEM of the SQL node's RSA public key, for caching_sha2_password / sha256_password without verified TLS. */
  serverPublicKey?: string;
  /** Secrets besides the password (serve's token) that nothing from the SQL node may carry out. */
  secrets?: Secrets;
}

export interface QueryResult<T> {
  rows: T[];
  /** When the answer was complete (ms since the epoch): when its figures were observed. */
  at: number;
  /** How long the SQL node took, from sending to the last row: what the self-load budget counts. */
  durationMs: number;
}

/** Counts that let a caller (and the tests) see that queries never overlap on one connection. */
export interface ConnectionStats {
  queries: number;
  inFlight: number;
  maxInFlight: number;
}

const ER_SECURE_TRANSPORT_REQUIRED = 3159;

/**
 * One connection to one SQL node (never a pool: a monitor's load on the SQL node stays one session). Queries run
 * one at a time in the order asked; the first failure that ends the connection is reported once to `onEnd`.
 */
export class SqlConnection {
  readonly stats: ConnectionStats = { queries: 0, inFlight: 0, maxInFlight: 0 };
  private tail: Promise<unknown> = Promise.resolve();
  private ended: NdbinfoError | null = null;
  private readonly endListeners = new Set<(reason: NdbinfoError) => void>();

  private constructor(
    private readonly conn: Connection,
    readonly address: SqlNodeAddress,
    /** The server's version string from its handshake (e.g. `8.4.3-cluster`). */
    readonly serverVersion: string,
    /** Whether the session runs over TLS. */
    readonly tls: boolean,
    /** The password and every other secret: what no error text may carry. */
    readonly secrets: Secrets,
    private readonly queryTimeoutMs: number,
  ) {
    conn.on('error', (err) => this.end(classify(err, address.display, secrets)));
    conn.on('end', () => this.end(new NdbinfoError('LOST', `${address.display}: the server closed the connection`)));
  }

  /**
   * Connects and authenticates (mysql2: mysql_native_password, caching_sha2_password, sha256_password, the last two
   * guarded: auth-plugins.ts). A server that requires TLS (ER_SECURE_TRANSPORT_REQUIRED) is asked again over TLS;
   * without a CA its certificate is not verified, which the state says (`tls`), since MySQL's auto-generated
   * certificates are self-signed; such a session never gets the password itself.
   */
  static async open(address: SqlNodeAddress, password: string | undefined, options: SqlConnectOptions): Promise<SqlConnection> {
    const useTls = options.tlsCa !== undefined;
    const secrets = secretsOf(password, ...(options.secrets ?? []));
    try {
      return await SqlConnection.dial(address, password, secrets, options, useTls);
    } catch (err) {
      if (useTls || (err as { errno?: number }).errno !== ER_SECURE_TRANSPORT_REQUIRED) throw classify(err, address.display, secrets, options.connectTimeoutMs);
    }
    try {
      return await SqlConnection.dial(address, password, secrets, options, true);
    } catch (err) {
      throw classify(err, address.display, secrets, options.connectTimeoutMs);
    }
  }

  private static async dial(address: SqlNodeAddress, password: string | undefined, secrets: Secrets, options: SqlConnectOptions, tls: boolean): Promise<SqlConnection> {
    // Loaded at the first SQL connection: without --sql, mysql2 (~30 ms of start-up) is never needed. Through its
    // default export: a CommonJS package's named exports, which Node finds by reading its source, are not there when
    // the CLI's bundle puts mysql2 in a chunk of its own.
    const { default: mysql } = await import('mysql2');
    const verifiedTls = tls && options.tlsCa !== undefined;
    const config: ConnectionOptions = {
      host: address.host,
      port: address.port,
      user: address.user,
      password,
      connectTimeout: options.connectTimeoutMs,
      rowsAsArray: true,
      // Every value as the bytes the server sent: mysql2's number parser reads any byte as a digit ("x1y" as 7283),
      // so parse-row.ts checks and converts each value itself.
      typeCast: false,
      multipleStatements: false,
      authPlugins: guardedAuthPlugins(mysql.authPlugins, { verifiedTls, where: address.display, ...(options.serverPublicKey !== undefined ? { serverPublicKey: options.serverPublicKey } : {}) }),
      ...(tls ? { ssl: verifiedTls ? { ca: options.tlsCa, rejectUnauthorized: true } : { rejectUnauthorized: false } } : {}),
    };
    return new Promise((resolve, reject) => {
      const conn = mysql.createConnection(config);
      // Authentication after the handshake is not covered by mysql2's connectTimeout: one deadline for both.
      const timer = setTimeout(() => {
        conn.destroy();
        reject(new NdbinfoError('TIMEOUT', `${address.display}: no answer within ${options.connectTimeoutMs} ms`));
      }, options.connectTimeoutMs);
      conn.once('error', (err) => {
        clearTimeout(timer);
        conn.destroy();
        reject(err);
      });
      conn.once('connect', (handshake: { serverVersion?: string }) => {
        clearTimeout(timer);
        conn.removeAllListeners('error');
        // The version is the server's own text too: shown and recorded, so scrubbed as every value from it.
        resolve(new SqlConnection(conn, address, scrub(handshake.serverVersion ?? '', secrets), tls, secrets, options.queryTimeoutMs));
      });
    });
  }

  /** Why the connection ended, or null while it is up. */
  get endedBy(): NdbinfoError | null {
    return this.ended;
  }

  /** Calls `listener` once when the connection ends (at once if it has); returns how to stop listening. */
  onEnd(listener: (reason: NdbinfoError) => void): () => void {
    if (this.ended) listener(this.ended);
    else this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }

  /**
   * Runs `sql` after every query asked before it has finished; never two at once on this connection. Rows are
   * streamed: each goes through `each` as it arrives (a throw fails the query, later rows are read and dropped),
   * and an answer that passes `limit` cuts the connection there (a half-read answer cannot be left on it).
   */
  query<T>(sql: string, limit: AnswerLimit, each: (row: unknown) => T): Promise<QueryResult<T>> {
    const run = this.tail.then(() => this.send(sql, limit, each));
    this.tail = run.catch(() => undefined);
    return run;
  }

  private send<T>(sql: string, limit: AnswerLimit, each: (row: unknown) => T): Promise<QueryResult<T>> {
    if (this.ended) return Promise.reject(this.ended);
    const started = performance.now();
    this.stats.queries += 1;
    this.stats.inFlight += 1;
    this.stats.maxInFlight = Math.max(this.stats.maxInFlight, this.stats.inFlight);
    const where = this.address.display;
    return new Promise<QueryResult<T>>((resolve, reject) => {
      const rows: T[] = [];
      let bytes = 0;
      let fields = false;
      let failed: NdbinfoError | null = null;
      let settled = false;
      let unlisten = (): void => undefined;
      const socket = (this.conn as unknown as { stream: NodeJS.EventEmitter }).stream;
      const cut = (err: NdbinfoError): void => {
        this.end(err);
        settle(err);
      };
      const counted = (chunk: Buffer): void => {
        bytes += chunk.length;
        if (bytes > limit.maxBytes) cut(new NdbinfoError('TOO_LARGE', `${where}: the answer from ${limit.what} passed ${limit.maxBytes} bytes (its limit); the connection was cut`));
      };
      const settle = (err: NdbinfoError | null): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        unlisten();
        socket.off('data', counted);
        this.stats.inFlight -= 1;
        if (err) reject(err);
        else resolve({ rows, at: Date.now(), durationMs: performance.now() - started });
      };
      const timer = setTimeout(() => cut(new NdbinfoError('TIMEOUT', `${where}: query got no answer within ${this.queryTimeoutMs} ms`)), this.queryTimeoutMs);
      unlisten = this.onEnd((reason) => settle(reason));
      // Counted before mysql2 parses a chunk (and keeps it while a packet is incomplete).
      socket.prependListener('data', counted);
      const q = this.conn.query(sql);
      q.on('fields', (f: unknown) => (fields ||= f !== undefined));
      q.on('result', (row: unknown) => {
        if (settled || failed) return;
        if (!fields) {
          failed = new NdbinfoError('QUERY_FAILED', `${where}: expected rows from ${limit.what}, got a status reply`);
          return;
        }
        if (rows.length >= limit.maxRows) return cut(new NdbinfoError('TOO_LARGE', `${where}: the answer from ${limit.what} passed ${limit.maxRows} rows (its limit); the connection was cut`));
        try {
          rows.push(each(row));
        } catch (err) {
          failed = err instanceof NdbinfoError ? err : new NdbinfoError('MALFORMED', `${where}: ${limit.what}: ${String(err)}`);
        }
      });
      q.on('error', (err: Error) => {
        const e = classify(err, where, this.secrets, this.queryTimeoutMs);
        // mysql2 hands a connection lost during a query to that query only, with no 'error' or 'end' event on
        // the connection: without this the source saw a failed reading and kept the dead session up for ever.
        if ((err as { fatal?: boolean }).fatal) this.end(e);
        settle(e);
      });
      q.on('end', () => settle(failed ?? (fields ? null : new NdbinfoError('QUERY_FAILED', `${where}: expected rows from ${limit.what}, got a status reply`))));
    });
  }

  private end(reason: NdbinfoError): void {
    if (this.ended) return;
    this.ended = reason;
    this.conn.destroy();
    const listeners = [...this.endListeners];
    this.endListeners.clear();
    for (const l of listeners) l(reason);
  }

  close(): void {
    this.end(new NdbinfoError('CLOSED', `${this.address.display}: connection closed`));
  }
}
