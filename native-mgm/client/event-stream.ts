import { EventEmitter } from 'node:events';
import { resolveConnectstring, type MgmHost } from '../connectstring.js';
import { type MgmError, ProtocolError, TimeoutError } from '../errors.js';
import { MONITOR_FILTER, type Category } from '../events/catalogue.js';
import { formatListenFilter } from '../events/filter.js';
import { EventRecordParser } from '../events/parse-event.js';
import { parseListenReply } from '../protocol/messages/listen.js';
import type { ClusterEvent } from '../types.js';
import type { BackoffOptions } from './backoff.js';
import type { MgmConnection, StreamFrame } from './connection.js';
import { Link, type LinkState } from './link.js';
import type { MgmTlsOptions } from '../tls/credentials.js';
import { TlsUpgrader, type TlsSessionInfo } from './tls/tls-upgrade.js';

export interface EventStreamOptions {
  connectstring?: string;
  hosts?: ReadonlyArray<MgmHost>;
  /** Category levels to subscribe at (spec §6.1); defaults to what a monitor needs, statistics included. */
  filter?: Readonly<Partial<Record<Category, number>>>;
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** The server pings every ~0.5 s; this long without a byte means the connection is dead (spec §6.2). Default 2.5 s
   * (five missed PINGs), checked every 250 ms, so a dead stream shows within a 3 s budget. */
  livenessTimeoutMs?: number;
  reconnect?: boolean;
  backoff?: BackoffOptions;
  /** The event connection needs its own `start tls` before `listen event` (spec §9). */
  tls?: MgmTlsOptions;
  /** Read the stream at most once per this many ms (see MgmConnection.readAtMostEvery); default 0, as bytes come. */
  readEveryMs?: number;
}

interface StreamEvents {
  event: [ClusterEvent];
  /** Something on the stream was malformed and dropped; the stream goes on. */
  warning: [MgmError];
  state: [LinkState];
}

/**
 * The dedicated event connection (spec §3 step 7, §6): sends only `listen event` with parsable records, stamps
 * each record on receipt (the wire's `time` is always 0), and treats silence longer than a few ping intervals
 * as a dead server, failing over like the command connection.
 */
export class EventStream {
  readonly events = new EventEmitter<StreamEvents>();
  private readonly link: Link<true>;
  private readonly livenessTimeoutMs: number;
  private watchdog: NodeJS.Timeout | null = null;
  private lastByteAt = 0;
  private readonly tlsUpgrader: TlsUpgrader | null;
  private readEveryMs: number;
  private conn: MgmConnection | null = null;

  constructor(options: EventStreamOptions = {}) {
    const hosts = options.hosts ?? resolveConnectstring({ explicit: options.connectstring }).hosts;
    const filter = formatListenFilter(options.filter ?? MONITOR_FILTER);
    const requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
    this.livenessTimeoutMs = options.livenessTimeoutMs ?? 2500;
    this.readEveryMs = options.readEveryMs ?? 0;
    const upgrader = options.tls ? new TlsUpgrader(options.tls, requestTimeoutMs) : null;
    this.tlsUpgrader = upgrader;
    this.link = new Link<true>(
      hosts,
      {
        connectTimeoutMs: options.connectTimeoutMs ?? 3000,
        reconnect: options.reconnect ?? true,
        ...(options.backoff ? { backoff: options.backoff } : {}),
        ...(upgrader ? { secure: (socket, host, port, signal) => upgrader.secure(socket, host, port, signal) } : {}),
      },
      (conn, signal) =>
        this.subscribe(conn, filter, { timeoutMs: requestTimeoutMs, signal }).catch((err: unknown) => {
          throw upgrader?.explain(err) ?? err;
        }),
    );
    this.link.events.on('state', (s) => this.events.emit('state', s));
  }

  get state(): LinkState {
    return this.link.state;
  }
  /** More management servers to fail over to (see MgmClient.setFailoverHosts). */
  setFailoverHosts(hosts: ReadonlyArray<MgmHost>): void {
    this.link.setExtraHosts(hosts);
  }


  /** How the current (or last) event session is secured; null when TLS is not configured. */
  get tls(): TlsSessionInfo | null {
    return this.tlsUpgrader?.session ?? null;
  }

  /** Resolves once subscribed; rejects when no server is reachable or the server refuses the filter. */
  start(signal?: AbortSignal): Promise<void> {
    return this.link.open(signal);
  }

  /** Applies to the current session at once, and to every later one. */
  setReadEvery(ms: number): void {
    this.readEveryMs = ms;
    this.conn?.readAtMostEvery(ms);
  }

  /** The command session is up on this server (index in the host list): a stream waiting to reconnect follows it now. */
  follow(hostIndex: number): void {
    this.link.reconnectNow(hostIndex);
  }

  close(): void {
    this.stopWatchdog();
    this.link.close();
  }

  private async subscribe(conn: MgmConnection, filter: string, options: { timeoutMs: number; signal: AbortSignal }): Promise<true> {
    // The handler must be in place before the reply: the first records can share its TCP segment.
    conn.onStream((frame) => this.onFrame(frame));
    const args = [
      ['parsable', 1],
      ['filter', filter],
    ] as const;
    // Records are typed as their lines arrive; each gets the time its last byte was read.
    await conn.request('listen event', args, { kind: 'listen', records: new EventRecordParser(Date.now) }, parseListenReply, options);
    conn.readAtMostEvery(this.readEveryMs);
    this.conn = conn;
    conn.onEnd(() => {
      if (this.conn === conn) this.conn = null;
    });
    this.watch(conn);
    return true;
  }

  private onFrame(frame: StreamFrame): void {
    this.lastByteAt = Date.now();
    switch (frame.type) {
      case 'event':
        try {
          this.events.emit('event', frame.event);
        } catch (err) {
          // A listener's fault must not be taken for a broken stream (the reader would drop the session).
          this.events.emit('warning', new ProtocolError('event listener failed', String(err)));
        }
        return;
      case 'error':
        this.events.emit('warning', frame.error);
        return;
      case 'stray-line':
        this.events.emit('warning', new ProtocolError('unexpected line on the event stream', JSON.stringify(frame.line)));
        return;
      case 'ping':
        return;
    }
  }

  private watch(conn: MgmConnection): void {
    this.stopWatchdog();
    this.lastByteAt = Date.now();
    const tick = Math.max(50, Math.min(250, Math.floor(this.livenessTimeoutMs / 4)));
    let tickedAt = Date.now();
    this.watchdog = setInterval(() => {
      const now = Date.now();
      // A tick this late means this process did not run (a long task, a starved CPU): PINGs sent meanwhile wait
      // unread in the socket, so that time is not the server's silence.
      const stalled = now - tickedAt - tick;
      tickedAt = now;
      if (stalled > tick) this.lastByteAt += stalled;
      const silent = now - this.lastByteAt;
      if (silent > this.livenessTimeoutMs) {
        this.stopWatchdog();
        conn.destroy(new TimeoutError('event stream silent (no <PING>)', silent));
      }
    }, tick);
    this.watchdog.unref();
    conn.onEnd(() => this.stopWatchdog());
  }

  private stopWatchdog(): void {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
  }
}
