import type { Connection, ConnectionOptions } from 'mysql2';
import { classify, NdbinfoError } from './errors.js';
import type { SqlNodeAddress } from './sql-url.js';

export interface SqlConnectOptions {
  /** Deadline for TCP connect, handshake and authentication together. */
  connectTimeoutMs: number;
  /** Deadline per query; one that passes ends the connection (its late answer would be taken for the next one's). */
  queryTimeoutMs: number;
  /** PEM of the CA that signed the SQL node's certificate: TLS always, server verified. */
  tlsCa?: string;
}

export interface QueryResult {
  rows: unknown[];
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
    private readonly password: string | undefined,
    private readonly queryTimeoutMs: number,
  ) {
    conn.on('error', (err) => this.end(classify(err, address.display, password)));
    conn.on('end', () => this.end(new NdbinfoError('LOST', `${address.display}: the server closed the connection`)));
  }

  /**
   * Connects and authenticates (mysql2: mysql_native_password, caching_sha2_password, sha256_password). A server
   * that requires TLS (ER_SECURE_TRANSPORT_REQUIRED) is asked again over TLS; without a CA its certificate is not
   * verified, which the state says (`tls`), since MySQL's auto-generated certificates are self-signed.
   */
  static async open(address: SqlNodeAddress, password: string | undefined, options: SqlConnectOptions): Promise<SqlConnection> {
    const useTls = options.tlsCa !== undefined;
    try {
      return await SqlConnection.dial(address, password, options, useTls);
    } catch (err) {
      if (useTls || (err as { errno?: number }).errno !== ER_SECURE_TRANSPORT_REQUIRED) throw classify(err, address.display, password, options.connectTimeoutMs);
    }
    try {
      return await SqlConnection.dial(address, password, options, true);
    } catch (err) {
      throw classify(err, address.display, password, options.connectTimeoutMs);
    }
  }

  private static async dial(address: SqlNodeAddress, password: string | undefined, options: SqlConnectOptions, tls: boolean): Promise<SqlConnection> {
    // Loaded at the first SQL connection: without --sql, mysql2 (~30 ms of start-up) is never needed. Through its
    // default export: a CommonJS package's named exports, which Node finds by reading its source, are not there when
    // the CLI's bundle puts mysql2 in a chunk of its own.
    const { default: mysql } = await import('mysql2');
    const config: ConnectionOptions = {
      host: address.host,
      port: address.port,
      user: address.user,
      password,
      connectTimeout: options.connectTimeoutMs,
      rowsAsArray: true,
      supportBigNumbers: true,
      multipleStatements: false,
      ...(tls ? { ssl: options.tlsCa !== undefined ? { ca: options.tlsCa, rejectUnauthorized: true } : { rejectUnauthorized: false } } : {}),
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
        resolve(new SqlConnection(conn, address, handshake.serverVersion ?? '', tls, password, options.queryTimeoutMs));
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

  /** Runs `sql` after every query asked before it has finished; never two at once on this connection. */
  query(sql: string): Promise<QueryResult> {
    const run = this.tail.then(() => this.send(sql));
    this.tail = run.catch(() => undefined);
    return run;
  }

  private send(sql: string): Promise<QueryResult> {
    if (this.ended) return Promise.reject(this.ended);
    const started = performance.now();
    this.stats.queries += 1;
    this.stats.inFlight += 1;
    this.stats.maxInFlight = Math.max(this.stats.maxInFlight, this.stats.inFlight);
    return new Promise<QueryResult>((resolve, reject) => {
      let settled = false;
      let unlisten = (): void => undefined;
      const settle = (err: NdbinfoError | null, rows?: unknown[]): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        unlisten();
        this.stats.inFlight -= 1;
        if (err) reject(err);
        else resolve({ rows: rows ?? [], at: Date.now(), durationMs: performance.now() - started });
      };
      const timer = setTimeout(() => {
        const err = new NdbinfoError('TIMEOUT', `${this.address.display}: query got no answer within ${this.queryTimeoutMs} ms`);
        this.end(err);
        settle(err);
      }, this.queryTimeoutMs);
      unlisten = this.onEnd((reason) => settle(reason));
      this.conn.query(sql, (err, rows) => {
        if (err) {
          const e = classify(err, this.address.display, this.password, this.queryTimeoutMs);
          // mysql2 hands a connection lost during a query to that query only, with no 'error' or 'end' event on
          // the connection: without this the source saw a failed reading and kept the dead session up for ever.
          if ((err as { fatal?: boolean }).fatal) this.end(e);
          settle(e);
        } else if (!Array.isArray(rows)) settle(new NdbinfoError('QUERY_FAILED', `${this.address.display}: expected rows, got a status reply`));
        else settle(null, rows);
      });
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
