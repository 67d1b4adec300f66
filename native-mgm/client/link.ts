import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import type { MgmHost } from '../connectstring.js';
import { AbortedError, CommandFailedError, ConnectionClosedError, MgmError, safeErrorText, ServerParserError, TimeoutError } from '../errors.js';
import { Backoff, type BackoffOptions } from './backoff.js';
import { MgmConnection } from './connection.js';
import { dialFirstReachable, type DialResult } from './dial.js';
import { initialMachine, step, type LinkEffect, type LinkInput, type LinkMachine, type LinkPhase } from './link-machine.js';

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
  /** Why the last dial or session failed, never quoting what the server sent (`safeErrorText`). */
  lastError: string | null;
}

export interface LinkOptions {
  connectTimeoutMs: number;
  /**
   * Keep reconnecting in the background after a loss. Without it the link holds one session: once that is lost
   * nothing is dialled again until `open()` is called, and `session()` fails with why it was lost.
   */
  reconnect: boolean;
  backoff?: BackoffOptions;
  /** How long a session must stay up before the backoff starts again from its shortest delay. */
  stableMs?: number;
  /** Runs on each freshly dialed socket before the session starts (TLS, spec §9); closes the socket if it throws. */
  secure?: (socket: Socket, host: string, port: number, signal: AbortSignal) => Promise<Socket>;
}

/**
 * A server that accepts sessions and drops them at once must not be redialled in a tight loop: only a session
 * that lived this long resets the backoff. Short enough that an ordinary failover (a session up for minutes)
 * retries at once.
 */
export const DEFAULT_STABLE_MS = 5000;

interface Attempt<Info> {
  abort: AbortController;
  dialed: DialResult | null;
  conn: MgmConnection | null;
  info: Info | null;
}

function statusOf(phase: LinkPhase): LinkStatus {
  switch (phase.kind) {
    case 'idle':
      return 'idle';
    case 'dialing':
      return phase.reconnecting ? 'reconnecting' : 'connecting';
    case 'up':
      return 'connected';
    case 'waiting':
      return 'reconnecting';
    case 'closed':
      return 'closed';
  }
}

const permanent = (err: unknown): boolean => err instanceof CommandFailedError || err instanceof ServerParserError;
const asMgmError = (err: unknown): MgmError => (err instanceof MgmError ? err : new ConnectionClosedError(err instanceof Error ? err.message : String(err)));

/**
 * Keeps one live session to some management server of the list: dials in order, runs the session's setup
 * (bootstrap or `listen event`), and after a loss fails over to the next server with capped backoff.
 * MgmClient and EventStream each own one; the reconnect policy lives only here, in `link-machine.ts`: this class
 * feeds it every outcome and carries out its effects (dial, drop, timers).
 */
export class Link<Info> {
  readonly events = new EventEmitter<{ state: [LinkState]; session: [MgmConnection, Info] }>();
  private machine: LinkMachine;
  private readonly attempts = new Map<number, Attempt<Info>>();
  private readonly backoff: Backoff;
  private readonly closer = new AbortController();
  private readonly timers: { stable: NodeJS.Timeout | null; retry: NodeJS.Timeout | null } = { stable: null, retry: null };
  private current: LinkState = { status: 'idle', host: null, port: null, hostIndex: null, since: Date.now(), failovers: 0, lastError: null };
  /** Why the last dial or session failed: what `open()` and `session()` report. */
  private lastFailure: MgmError | null = null;
  /** Fatal setup errors (a refused filter, an old server without the command) must not be retried forever. */
  private permanentError: MgmError | null = null;
  private readonly queue: Array<{ input: LinkInput; error: MgmError | null }> = [];
  /** Where the next dial starts when `reconnectNow` named a server known to be up. */
  private preferredIndex: number | null = null;
  /** `reconnectNow` came during a dial: if that dial fails, the wait is skipped (once). */
  private nowOnWait = false;
  private stepping = false;

  private hosts: ReadonlyArray<MgmHost>;

  constructor(
    /** The connectstring's servers. */
    private readonly given: ReadonlyArray<MgmHost>,
    private readonly options: LinkOptions,
    private readonly setup: (conn: MgmConnection, signal: AbortSignal) => Promise<Info>,
  ) {
    if (given.length === 0) throw new RangeError('no management server to connect to');
    this.hosts = given;
    this.backoff = new Backoff(options.backoff);
    this.machine = initialMachine(options.reconnect);
  }

  get state(): LinkState {
    return this.current;
  }

  /**
   * Management servers learned later (from the configuration), replacing those learned before: tried after the
   * given ones, whose host indexes stay unchanged. A session on one that is dropped lives on; the next dial wraps.
   */
  setExtraHosts(extra: ReadonlyArray<MgmHost>): void {
    this.hosts = [...this.given, ...extra];
  }

  get sessionInfo(): Info | null {
    return this.live()?.info ?? null;
  }

  /**
   * Waits until a session is up, dialling if the link is idle (one pass over the list). Rejects with why when
   * that pass fails, so callers fail fast; `signal` abandons the wait and the dial this call started.
   */
  async open(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new AbortedError('connecting to the management server');
    const phase = this.machine.phase;
    if (phase.kind === 'idle') this.input({ type: 'open' });
    const started = phase.kind === 'idle' ? this.machine.phase : null;
    const onAbort = (): void => {
      if (started?.kind === 'dialing') this.attempts.get(started.attempt)?.abort.abort();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        const now = this.machine.phase;
        if (now.kind === 'up') return;
        if (now.kind === 'closed') throw this.closedError();
        if (now.kind === 'idle') throw this.lastFailure ?? new ConnectionClosedError('not connected');
        await this.nextState(Infinity, signal);
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * The live session, waiting up to `timeoutMs` (the whole call, dialling included) while the link connects
   * or reconnects. An idle link is dialled once per call; a link without reconnect that lost its session
   * fails with why.
   */
  async session(timeoutMs: number, signal?: AbortSignal): Promise<{ conn: MgmConnection; info: Info }> {
    const deadline = Date.now() + timeoutMs;
    let dialled = false;
    for (;;) {
      const phase = this.machine.phase;
      if (phase.kind === 'closed') throw this.closedError();
      if (signal?.aborted) throw new AbortedError();
      const live = this.live();
      if (live?.conn && live.info !== null) return { conn: live.conn, info: live.info };
      if (phase.kind === 'idle') {
        if (phase.lost || dialled) throw this.lastFailure ?? new ConnectionClosedError(this.current.lastError ?? 'not connected');
        dialled = true;
        this.input({ type: 'open' });
        continue;
      }
      await this.nextState(deadline - Date.now(), signal);
    }
  }

  /**
   * A server of the list is known to be up (the cluster's other link just connected to it): a link waiting out
   * its backoff dials it now instead. A link still dialling (perhaps a server that accepts and never answers)
   * keeps the hint for when that attempt fails, once. A live link is left alone: never a second session.
   */
  reconnectNow(hostIndex: number): void {
    const kind = this.machine.phase.kind;
    if (kind !== 'waiting' && kind !== 'dialing') return;
    this.preferredIndex = ((hostIndex % this.hosts.length) + this.hosts.length) % this.hosts.length;
    if (kind === 'waiting') this.input({ type: 'now' });
    else this.nowOnWait = true;
  }

  close(): void {
    if (this.machine.phase.kind === 'closed') return;
    this.input({ type: 'close' });
    this.closer.abort();
  }

  private live(): Attempt<Info> | null {
    const phase = this.machine.phase;
    return phase.kind === 'up' ? (this.attempts.get(phase.attempt) ?? null) : null;
  }

  private closedError(): MgmError {
    return this.permanentError ?? new ConnectionClosedError('connection closed by ndbtop');
  }

  /** Every outcome goes through here, one at a time: an effect that causes another input (a drop ends a connection) queues it. */
  private input(input: LinkInput, error: MgmError | null = null): void {
    this.queue.push({ input, error });
    if (this.stepping) return;
    this.stepping = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) this.apply(next.input, next.error);
    } finally {
      this.stepping = false;
    }
  }

  private apply(input: LinkInput, error: MgmError | null): void {
    const before = this.machine;
    const { machine, effects } = step(before, input);
    this.machine = machine;
    if (machine === before) {
      this.run(effects);
      return;
    }
    if (error) {
      this.lastFailure = error;
      if (machine.phase.kind === 'closed' && input.type === 'failed') this.permanentError = error;
    }
    if (machine.phase.kind !== 'up') this.clearTimer('stable');
    if (machine.phase.kind !== 'waiting') this.clearTimer('retry');
    if (machine.phase.kind !== 'dialing') {
      // The hint from a dial that failed becomes the next input; any other outcome makes it moot.
      if (this.nowOnWait && machine.phase.kind === 'waiting') this.queue.push({ input: { type: 'now' }, error: null });
      else if (machine.phase.kind !== 'waiting') this.preferredIndex = null;
      this.nowOnWait = false;
    }
    const phase = machine.phase;
    const won = phase.kind === 'up' && input.type === 'ready' ? this.attempts.get(phase.attempt)?.dialed : null;
    const patch: Partial<LinkState> = { status: statusOf(phase), ...(error ? { lastError: safeErrorText(error) } : {}) };
    if (won) {
      const failedOver = this.current.hostIndex !== null && this.current.hostIndex !== won.index;
      Object.assign(patch, { host: won.host, port: won.port, hostIndex: won.index, lastError: null, failovers: this.current.failovers + (failedOver ? 1 : 0) });
    }
    const statusChanged = patch.status !== this.current.status;
    this.current = { ...this.current, ...patch, since: statusChanged ? Date.now() : this.current.since };
    this.events.emit('state', this.current);
    this.run(effects);
  }

  private run(effects: LinkEffect[]): void {
    for (const effect of effects) {
      switch (effect.type) {
        case 'dial':
          void this.dial(effect.attempt, effect.afterLoss);
          break;
        case 'drop':
          this.drop(effect.attempt);
          break;
        case 'session': {
          const live = this.attempts.get(effect.attempt);
          if (live?.conn && live.info !== null) this.events.emit('session', live.conn, live.info);
          break;
        }
        case 'arm-stable':
          this.arm('stable', this.options.stableMs ?? DEFAULT_STABLE_MS, { type: 'stable', attempt: effect.attempt });
          break;
        case 'arm-retry':
          this.arm('retry', this.backoff.next(), { type: 'retry', attempt: effect.attempt });
          break;
        case 'reset-backoff':
          this.backoff.reset();
          break;
      }
    }
  }

  /** TCP connect, the transport upgrade (TLS, `secure`), then the setup: all one attempt. */
  private async dial(n: number, afterLoss: boolean): Promise<void> {
    const attempt: Attempt<Info> = { abort: new AbortController(), dialed: null, conn: null, info: null };
    this.attempts.set(n, attempt);
    const signal = AbortSignal.any([this.closer.signal, attempt.abort.signal]);
    // Fail over: start with the server after the one just lost; the list wraps, so it comes back to it.
    const startIndex = this.preferredIndex ?? (afterLoss ? ((this.current.hostIndex ?? -1) + 1) % this.hosts.length : 0);
    this.preferredIndex = null;
    let socket: Socket;
    try {
      const dialed = await dialFirstReachable(this.hosts, { connectTimeoutMs: this.options.connectTimeoutMs, signal, startIndex });
      attempt.dialed = dialed;
      socket = this.options.secure ? await this.options.secure(dialed.socket, dialed.host, dialed.port, signal) : dialed.socket;
    } catch (err) {
      this.forget(n);
      this.input({ type: 'failed', attempt: n, permanent: false }, asMgmError(err));
      return;
    }
    const conn = new MgmConnection(socket, attempt.dialed.host, attempt.dialed.port);
    attempt.conn = conn;
    if (signal.aborted) conn.destroy(new AbortedError('connecting to the management server'));
    // Registered before the setup: the connection may end while its last reply is still being handed over. An end
    // during the setup is the setup's to report (its error says more, e.g. a TLS refusal on the first read);
    // a setup that completes on a connection that already ended is a failed attempt, never a session.
    let setupDone = false;
    let endedInSetup: MgmError | null = null;
    conn.onEnd((err) => {
      if (!setupDone) {
        endedInSetup = err;
        return;
      }
      this.forget(n);
      this.input({ type: 'ended', attempt: n }, err);
    });
    try {
      attempt.info = await this.setup(conn, signal);
    } catch (err) {
      setupDone = true;
      // Reported before the connection is destroyed, so a permanent refusal is not taken for a mere loss.
      this.input({ type: 'failed', attempt: n, permanent: permanent(err) }, asMgmError(err));
      this.forget(n);
      conn.destroy();
      return;
    }
    setupDone = true;
    if (endedInSetup !== null) {
      this.forget(n);
      this.input({ type: 'failed', attempt: n, permanent: false }, endedInSetup);
      return;
    }
    this.input({ type: 'ready', attempt: n });
  }

  private drop(n: number): void {
    const attempt = this.attempts.get(n);
    if (!attempt) return;
    attempt.abort.abort();
    // Politely, as mgmapi does (spec §3 step 6): `end session`, then the socket is closed on our side.
    if (attempt.conn?.isOpen && attempt.info !== null) void attempt.conn.close();
    else attempt.conn?.destroy();
    this.forget(n);
  }

  private forget(n: number): void {
    this.attempts.delete(n);
  }

  private arm(kind: 'stable' | 'retry', ms: number, input: LinkInput): void {
    this.clearTimer(kind);
    const timer = setTimeout(() => {
      this.timers[kind] = null;
      this.input(input);
    }, ms);
    // The stability timer alone must not keep a process alive; a pending retry must (`events` waits on it).
    if (kind === 'stable') timer.unref();
    this.timers[kind] = timer;
  }

  private clearTimer(kind: 'stable' | 'retry'): void {
    const timer = this.timers[kind];
    if (timer) clearTimeout(timer);
    this.timers[kind] = null;
  }

  /** Resolves on the next state change, rejects on timeout or cancellation. */
  private nextState(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (ms <= 0) return reject(new TimeoutError('waiting for the management server', 0));
      const signals = [this.closer.signal, ...(signal ? [signal] : [])];
      const cleanup = (): void => {
        if (timer) clearTimeout(timer);
        this.events.off('state', onState);
        signals.forEach((s) => s.removeEventListener('abort', onAbort));
      };
      const onState = (): void => {
        cleanup();
        resolve();
      };
      const onAbort = (): void => {
        cleanup();
        // Closing the link wakes waiters so they report the close itself.
        if (this.closer.signal.aborted && !signal?.aborted) resolve();
        else reject(new AbortedError());
      };
      const timer = Number.isFinite(ms)
        ? setTimeout(() => {
            cleanup();
            reject(new TimeoutError('waiting for the management server', ms));
          }, ms)
        : null;
      this.events.on('state', onState);
      if (signals.some((s) => s.aborted)) return onAbort();
      signals.forEach((s) => s.addEventListener('abort', onAbort, { once: true }));
    });
  }
}
