import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import type { MgmHost } from '../connectstring.js';
import { AbortedError, CommandFailedError, ConnectionClosedError, type MgmError, ServerParserError, TimeoutError } from '../errors.js';
import { Backoff, type BackoffOptions } from './backoff.js';
import { MgmConnection } from './connection.js';
import { dialFirstReachable } from './dial.js';
import { sleepUnlessAborted } from './sleep.js';

export type LinkStatus = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'closed';

export interface LinkState {
  status: LinkStatus;
  /** The management server in use (or last used), as host/port and position in the connectstring. */
  host: string | null;
  port: number | null;
  hostIndex: number | null;
  /** When `status` last changed (ms since epoch). */
  since: number;
  /** How many times the link came back on a different management server than it lost. */
  failovers: number;
  lastError: string | null;
}

export interface LinkOptions {
  connectTimeoutMs: number;
  reconnect: boolean;
  backoff?: BackoffOptions;
  /** Runs on each freshly dialed socket before the session starts (TLS, spec §9); closes the socket if it throws. */
  secure?: (socket: Socket, host: string, port: number, signal: AbortSignal) => Promise<Socket>;
}

/**
 * Keeps one live session to some management server of the list: dials in order, runs the session's setup
 * (bootstrap or `listen event`), and after a loss fails over to the next server with capped backoff.
 * MgmClient and EventStream each own one; the reconnect policy lives only here.
 */
export class Link<Info> {
  readonly events = new EventEmitter<{ state: [LinkState]; session: [MgmConnection, Info] }>();
  private conn: MgmConnection | null = null;
  private info: Info | null = null;
  private dialing: Promise<void> | null = null;
  private readonly backoff: Backoff;
  private readonly closer = new AbortController();
  private current: LinkState = { status: 'idle', host: null, port: null, hostIndex: null, since: Date.now(), failovers: 0, lastError: null };
  /** Fatal setup errors (a refused filter, an old server without the command) must not be retried forever. */
  private permanentError: MgmError | null = null;

  constructor(
    private hosts: ReadonlyArray<MgmHost>,
    private readonly options: LinkOptions,
    private readonly setup: (conn: MgmConnection, signal: AbortSignal) => Promise<Info>,
  ) {
    if (hosts.length === 0) throw new RangeError('no management server to connect to');
    this.backoff = new Backoff(options.backoff);
  }

  get state(): LinkState {
    return this.current;
  }

  /** Management servers learned later (from the configuration): tried after the given ones, host indexes unchanged. */
  addHosts(extra: ReadonlyArray<MgmHost>): void {
    this.hosts = [...this.hosts, ...extra];
  }

  get sessionInfo(): Info | null {
    return this.info;
  }

  /** First connection: one pass over the list; rejects when no server is reachable, so callers fail fast. */
  async open(signal?: AbortSignal): Promise<void> {
    if (this.conn?.isOpen) return;
    this.setState({ status: 'connecting' });
    await this.dialOnce(0, signal);
  }

  /** The live session, waiting up to `timeoutMs` while the link reconnects. */
  async session(timeoutMs: number, signal?: AbortSignal): Promise<{ conn: MgmConnection; info: Info }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.current.status === 'closed') throw this.permanentError ?? new ConnectionClosedError('connection closed by ndbtop');
      if (signal?.aborted) throw new AbortedError();
      if (this.conn?.isOpen && this.info !== null) return { conn: this.conn, info: this.info };
      if (this.current.status === 'idle') await this.open(signal);
      else if (!this.options.reconnect) throw new ConnectionClosedError(this.current.lastError ?? 'not connected');
      else await this.nextState(deadline - Date.now(), signal);
    }
  }

  close(): void {
    if (this.current.status === 'closed') return;
    this.closer.abort();
    this.setState({ status: 'closed' });
    // Politely, as mgmapi does (spec §3 step 6): `end session`, then the socket is closed on our side.
    void this.conn?.close();
    this.conn = null;
  }

  private async dialOnce(startIndex: number, signal?: AbortSignal): Promise<void> {
    const abort = AbortSignal.any([this.closer.signal, ...(signal ? [signal] : [])]);
    const previousIndex = this.current.hostIndex;
    const dialed = await dialFirstReachable(this.hosts, { connectTimeoutMs: this.options.connectTimeoutMs, signal: abort, startIndex });
    const socket = this.options.secure ? await this.options.secure(dialed.socket, dialed.host, dialed.port, abort) : dialed.socket;
    const conn = new MgmConnection(socket, dialed.host, dialed.port);
    let info: Info;
    try {
      info = await this.setup(conn, abort);
    } catch (err) {
      conn.destroy();
      if (err instanceof CommandFailedError || err instanceof ServerParserError) {
        this.permanentError = err;
        this.close();
      }
      throw err;
    }
    if (this.current.status === 'closed') {
      conn.destroy();
      throw new ConnectionClosedError('connection closed by ndbtop');
    }
    this.conn = conn;
    this.info = info;
    this.backoff.reset();
    const failedOver = previousIndex !== null && previousIndex !== dialed.index;
    this.setState({
      status: 'connected',
      host: dialed.host,
      port: dialed.port,
      hostIndex: dialed.index,
      failovers: this.current.failovers + (failedOver ? 1 : 0),
      lastError: null,
    });
    conn.onEnd((err) => this.lost(conn, err));
    this.events.emit('session', conn, info);
  }

  private lost(conn: MgmConnection, err: MgmError): void {
    if (this.conn !== conn || this.current.status === 'closed') return;
    this.conn = null;
    this.info = null;
    if (!this.options.reconnect) {
      this.setState({ status: 'idle', lastError: err.message });
      return;
    }
    this.setState({ status: 'reconnecting', lastError: err.message });
    this.dialing ??= this.reconnectLoop().finally(() => (this.dialing = null));
  }

  private async reconnectLoop(): Promise<void> {
    // Fail over: start with the server after the one just lost; the list wraps, so it comes back to it.
    let start = ((this.current.hostIndex ?? -1) + 1) % this.hosts.length;
    while (this.current.status === 'reconnecting') {
      try {
        await this.dialOnce(start);
        return;
      } catch (err) {
        if (this.current.status !== 'reconnecting') return;
        this.setState({ status: 'reconnecting', lastError: err instanceof Error ? err.message : String(err) });
        start = 0;
        await sleepUnlessAborted(this.backoff.next(), this.closer.signal);
      }
    }
  }

  /** Resolves on the next state change, rejects on timeout or cancellation. */
  private nextState(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (ms <= 0) return reject(new TimeoutError('waiting for the management server to come back', 0));
      const signals = [this.closer.signal, ...(signal ? [signal] : [])];
      const cleanup = (): void => {
        clearTimeout(timer);
        this.events.off('state', onState);
        signals.forEach((s) => s.removeEventListener('abort', onAbort));
      };
      const onState = (): void => {
        cleanup();
        resolve();
      };
      const onAbort = (): void => {
        cleanup();
        reject(new AbortedError());
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new TimeoutError('waiting for the management server to come back', ms));
      }, ms);
      this.events.on('state', onState);
      signals.forEach((s) => s.addEventListener('abort', onAbort, { once: true }));
    });
  }

  private setState(patch: Partial<LinkState>): void {
    const statusChanged = patch.status !== undefined && patch.status !== this.current.status;
    this.current = { ...this.current, ...patch, since: statusChanged ? Date.now() : this.current.since };
    this.events.emit('state', this.current);
  }
}
