import { Backoff } from '../../native-mgm/client/backoff.js';
import type { ClusterShape } from './answer-limits.js';
import { CounterRates } from './counter-rates.js';
import { dialFirstUsable, type SqlSession } from './dial.js';
import { NdbinfoError, type NdbinfoErrorCode } from './errors.js';
import { DEFAULT_BUDGET, LoadBudget, type BudgetOptions, type BudgetState } from './load-budget.js';
import { ReadingHealth } from './reading-health.js';
import type { ReadingDef } from './readings.js';
import { restartInProgress } from './restart-progress.js';
import type { ReadingKey, RestartRow } from './rows.js';
import { readingsOf, runReading, type Sample } from './sample.js';
import type { SqlConnectOptions } from './sql-connection.js';
import type { SqlNodeAddress } from './sql-url.js';

type UpState = {
      kind: 'up';
      at: number;
      sqlNode: string;
      serverVersion: string;
      tls: boolean;
      tables: string[];
      /** Wanted tables this SQL node lacks: a note for the user, never an error. */
      missing: string[];
      /** Columns of its wanted tables it lacks, as `table.column` (an older release); absent from older recordings. */
      absentColumns?: string[];
      /** The SQL node this one replaced after a failure, when it is another one. */
      failedOverFrom: string | null;
      failovers: number;
    };

/**
 * The source's link to the SQL nodes; the engine turns a lost source's figures stale. `failing`: connected, but its
 * readings fail (reading-health.ts), `reason` the latest failure.
 */
export type SourceState =
  | { kind: 'connecting'; at: number; sqlNode: string; lastError: string | null }
  | UpState
  | { kind: 'failing'; at: number; sqlNode: string; code: NdbinfoErrorCode; reason: string }
  | { kind: 'lost'; at: number; sqlNode: string | null; code: NdbinfoErrorCode; reason: string }
  | { kind: 'closed'; at: number };

export type SourceEvent =
  | { type: 'state'; state: SourceState }
  | { type: 'sample'; sample: Sample }
  /** A reading failed without the connection (a malformed value, a refused table): it is retried less often. */
  | { type: 'problem'; at: number; reading: ReadingKey; code: NdbinfoErrorCode; message: string };

export interface ReadingLoad {
  intervalMs: number;
  lastMs: number | null;
  /** Mean of the recent queries (exponentially weighted, the last ~8). */
  meanMs: number | null;
  paused: boolean;
}

/** What the monitor costs the SQL node: for the UI and /metrics. */
export interface SelfLoad extends BudgetState {
  readings: Partial<Record<ReadingKey, ReadingLoad>>;
  queries: number;
  maxInFlight: number;
}

export interface NdbinfoSourceOptions extends SqlConnectOptions {
  addresses: readonly SqlNodeAddress[];
  password: string | undefined;
  /** Override a reading's interval (ms). */
  intervals?: Partial<Record<ReadingKey, number>>;
  /** `restart_info` interval while a node is starting (1 s). */
  restartFastMs?: number;
  budget?: BudgetOptions;
  /** A session that lasted this long resets the backoff (as native-mgm's links). */
  stableMs?: number;
  backoff?: Backoff;
}

const RESTART_FAST_MS = 1000;
const MAX_FAILURE_BACKOFF = 60_000;

interface ReadingSlot {
  def: ReadingDef;
  due: number;
  failures: number;
  load: ReadingLoad;
}

/**
 * The SQL source: one connection at a time to the first usable SQL node of the list, every reading on its own
 * interval, one query at a time. On a loss it reconnects with capped, jittered backoff, starting with the next SQL
 * node; every figure comes with the time it was observed and every state change is an event.
 */
export class NdbinfoSource {
  private readonly listeners = new Set<(event: SourceEvent) => void>();
  private readonly rates = new CounterRates();
  private readonly budget: LoadBudget;
  private readonly backoff: Backoff;
  private readonly stop = new AbortController();
  private readonly loads = new Map<ReadingKey, ReadingLoad>();
  private session: SqlSession | null = null;
  private restarting = false;
  private restartHint = false;
  private shape: ClusterShape | null = null;
  private up: UpState | null = null;
  private readonly health = new ReadingHealth((error) => {
    if (!this.up) return;
    this.state(error ? { kind: 'failing', at: Date.now(), sqlNode: this.up.sqlNode, code: error.code, reason: error.message } : { ...this.up, at: Date.now() });
  });
  private failovers = 0;
  private queries = 0;
  private maxInFlight = 0;
  private running: Promise<void> | null = null;

  constructor(private readonly options: NdbinfoSourceOptions) {
    if (options.addresses.length === 0) throw new NdbinfoError('BAD_URL', 'no SQL node given (--sql mysql://USER@HOST[:PORT])');
    this.budget = new LoadBudget(options.budget ?? DEFAULT_BUDGET, Date.now());
    this.backoff = options.backoff ?? new Backoff();
  }

  subscribe(listener: (event: SourceEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    this.running ??= this.run();
  }

  /** The engine knows from the management server that a data node is starting: read restart_info every second. */
  setRestartWatch(on: boolean): void {
    this.restartHint = on;
  }

  /** What the management server says of the cluster: it bounds every answer (answer-limits.ts). */
  setShape(shape: ClusterShape | null): void {
    this.shape = shape;
  }

  selfLoad(now = Date.now()): SelfLoad {
    const stats = this.session?.conn.stats;
    return {
      ...this.budget.state(now),
      readings: Object.fromEntries(this.loads),
      queries: this.queries + (stats?.queries ?? 0),
      maxInFlight: Math.max(this.maxInFlight, stats?.maxInFlight ?? 0),
    };
  }

  async close(): Promise<void> {
    this.stop.abort();
    this.session?.conn.close();
    await this.running;
  }

  private emit(event: SourceEvent): void {
    for (const l of this.listeners) l(event);
  }

  private state(state: SourceState): void {
    this.emit({ type: 'state', state });
  }

  private async run(): Promise<void> {
    const { addresses } = this.options;
    let start = 0;
    let previous: string | null = null;
    while (!this.stop.signal.aborted) {
      this.state({ kind: 'connecting', at: Date.now(), sqlNode: addresses[start]?.display ?? '', lastError: null });
      let session: SqlSession;
      try {
        session = await dialFirstUsable(addresses, start, this.options.password, this.options, (index, err) => {
          const next = addresses[(index + 1) % addresses.length];
          if (addresses.length > 1 && next) this.state({ kind: 'connecting', at: Date.now(), sqlNode: next.display, lastError: err.message });
        });
      } catch (err) {
        const e = err as NdbinfoError;
        this.state({ kind: 'lost', at: Date.now(), sqlNode: null, code: e.code, reason: e.message });
        await this.pause(this.backoff.next());
        continue;
      }
      if (this.stop.signal.aborted) {
        session.conn.close();
        break;
      }
      const { conn } = session;
      const failedOverFrom = previous !== null && previous !== conn.address.display ? previous : null;
      if (failedOverFrom) this.failovers += 1;
      this.session = session;
      const upAt = Date.now();
      this.health.reset();
      this.up = { kind: 'up', at: upAt, sqlNode: conn.address.display, serverVersion: conn.serverVersion, tls: conn.tls, tables: [...session.present], missing: [...session.missing], absentColumns: [...session.absentColumns], failedOverFrom, failovers: this.failovers };
      this.state(this.up);
      const reason = await this.poll(session);
      this.up = null;
      this.queries += conn.stats.queries;
      this.maxInFlight = Math.max(this.maxInFlight, conn.stats.maxInFlight);
      this.session = null;
      if (this.stop.signal.aborted) break;
      this.state({ kind: 'lost', at: Date.now(), sqlNode: conn.address.display, code: reason.code, reason: reason.message });
      previous = conn.address.display;
      start = (session.index + 1) % addresses.length;
      // Only a session that stayed up earns an immediate retry; one that broke at once waits the next delay.
      if (Date.now() - upAt >= (this.options.stableMs ?? 5000)) this.backoff.reset();
      else await this.pause(this.backoff.next());
    }
    this.state({ kind: 'closed', at: Date.now() });
  }

  /** Waits `ms`, or until closed or (given `conn`) until the connection ends. */
  private pause(ms: number, conn?: SqlSession['conn']): Promise<void> {
    return new Promise((resolve) => {
      const signal = this.stop.signal;
      if (signal.aborted || conn?.endedBy) return resolve();
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      // The connection is not ended here, so onEnd does not call `done` before `unlisten` is set.
      const unlisten = conn?.onEnd(done);
      function done(): void {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        unlisten?.();
        resolve();
      }
    });
  }

  private intervalOf(def: ReadingDef): number {
    const base = this.options.intervals?.[def.key] ?? def.intervalMs;
    const fast = def.key === 'restarts' && (this.restarting || this.restartHint);
    return (fast ? Math.min(base, this.options.restartFastMs ?? RESTART_FAST_MS) : base) * this.budget.stretch;
  }

  /** Reads until the connection ends; returns why it ended. */
  private async poll(session: SqlSession): Promise<NdbinfoError> {
    const now = Date.now();
    const slots: ReadingSlot[] = readingsOf(session).map((def) => {
      const load: ReadingLoad = this.loads.get(def.key) ?? { intervalMs: this.intervalOf(def), lastMs: null, meanMs: null, paused: false };
      this.loads.set(def.key, load);
      return { def, due: now, failures: 0, load };
    });
    for (const key of this.loads.keys()) if (!slots.some((s) => s.def.key === key)) this.loads.delete(key);
    const { conn } = session;
    while (!this.stop.signal.aborted && !conn.endedBy) {
      for (const s of slots) s.load.paused = this.budget.shedding && !s.def.essential;
      // A start the management server just reported is read at the fast rate from now on, not after the slow
      // interval the last reading set (the loop wakes at least once a second for the CPU reading).
      const restarts = this.restartHint ? slots.find((s) => s.def.key === 'restarts' && s.failures === 0) : undefined;
      if (restarts) restarts.due = Math.min(restarts.due, Date.now() + this.intervalOf(restarts.def));
      const next = slots.filter((s) => !s.load.paused).sort((a, b) => a.due - b.due)[0];
      if (!next) return conn.endedBy ?? new NdbinfoError('NO_NDBINFO', `${conn.address.display}: no ndbinfo table left to read`);
      await this.pause(Math.max(0, next.due - Date.now()), conn);
      if (this.stop.signal.aborted || conn.endedBy) break;
      await this.read(session, next);
    }
    return conn.endedBy ?? new NdbinfoError('CLOSED', `${conn.address.display}: connection closed`);
  }

  private async read(session: SqlSession, slot: ReadingSlot): Promise<void> {
    const { def, load } = slot;
    const unwatch = this.health.watch(def.key, 2 * load.intervalMs, `ndbinfo.${def.table}`, session.conn.address.display);
    try {
      const sample = await runReading(session, def, this.rates, this.shape);
      this.budget.record(sample.at, sample.durationMs);
      load.lastMs = sample.durationMs;
      load.meanMs = load.meanMs === null ? sample.durationMs : load.meanMs + (sample.durationMs - load.meanMs) / 8;
      slot.failures = 0;
      if (def.key === 'restarts') this.restarting = (sample.rows as RestartRow[]).some(restartInProgress);
      this.emit({ type: 'sample', sample });
      this.health.answered(def.key);
    } catch (err) {
      if (session.conn.endedBy) return;
      const e = err instanceof NdbinfoError ? err : new NdbinfoError('QUERY_FAILED', String(err));
      slot.failures += 1;
      this.emit({ type: 'problem', at: Date.now(), reading: def.key, code: e.code, message: e.message });
      this.health.failed(def.key, e);
    } finally {
      unwatch();
    }
    load.intervalMs = this.intervalOf(def);
    // A reading that keeps failing is asked less and less often (up to once a minute), never in a loop.
    const penalty = slot.failures === 0 ? load.intervalMs : Math.min(MAX_FAILURE_BACKOFF, load.intervalMs * 2 ** slot.failures);
    slot.due = Date.now() + penalty;
  }
}
