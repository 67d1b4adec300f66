import type { ActionResult, ParsedOperatorAction } from '../../contract/schemas/actions.js';
import { STALE_AFTER_POLLS } from '../../contract/schemas/snapshot.js';
import { AuthorizationError, EventStream, UnexpectedReplyError, formatHostPort, MgmClient, resolveConnectstring, safeErrorText, type ClusterEvent, type LinkState, type MgmTlsOptions } from '../../../native-mgm/index.js';
import { refusalText, sendAction } from '../features/actions/action-runner.js';
import { connectionInput, type LinkPicture } from './connection-view.js';
import { MemoryRefresh } from './memory-refresh.js';
import { BackupReports } from './backup-reports.js';
import { PollLoop } from './poll-loop.js';
import { DEFAULT_CERT_EXPIRY_WARN_DAYS, TlsWatch } from '../facts/tls/tls-watch.js';
import type { ConnectionInput, TrackerInput } from './tracker-input.js';
import { ConfigWatcher } from '../facts/config/config-watcher.js';
import { FailoverTargets, type FailoverPolicy } from '../facts/config/failover-targets.js';

export interface MonitorOptions {
  connectstring: string;
  pollIntervalMs: number;
  memoryRefreshMs: number;
  requestTimeoutMs: number;
  /** Pause between first-connection attempts while no management server answers. */
  retryMs: number;
  /** How often the configuration is read again to notice a new generation (also after a server comes back). */
  configRefreshMs?: number;
  sink: (input: TrackerInput) => void;
  /** TLS for every session (command, events, actions), as NDB tools take it; absent: clear text. */
  tls?: MgmTlsOptions;
  /** Warn when a certificate expires within this many days. */
  certExpiryWarnDays?: number;
  /** Whether management servers the configuration lists become failover targets (Settings `failover`). */
  failover: FailoverPolicy;
}

/** Events after which `get status` is asked at once rather than at the next poll (spec §8.3). */
const STATE_EVENTS = new Set([
  'NDBStopStarted',
  'NDBStopCompleted',
  'NDBStopForced',
  'NDBStopAborted',
  'Disconnected',
  'Connected',
  'NODE_FAILREP',
  'NodeFailCompleted',
  'StartPhaseCompleted',
  'NDBStartStarted',
  'NDBStartCompleted',
  'CM_REGCONF',
  'SingleUser',
  'ArbitResult',
  'GCP_TakeoverCompleted',
  'ConnectedApiVersion',
]);

/**
 * How long the event stream is left unread after each read: a tenth of the poll interval, at most 100 ms. An idle
 * cluster of 144 data nodes sends ~230 statistics reports a second, one at a time, and being woken for each cost
 * more than everything else the engine does at idle; read ten times a second they cost a fraction. A state event
 * then shows at most a tenth of a poll interval later, where the poll alone would show it a whole interval late.
 */
const readEveryMs = (pollIntervalMs: number): number => Math.min(100, Math.floor(pollIntervalMs / 10));

/** An error stays on screen at least this long, even when the next poll succeeds. */
/** Deadline of the configuration fetch; see where it is used. */
const CONFIG_TIMEOUT_MS = 10_000;
const ERROR_STICKY_MS = 10_000;

/**
 * Watches one cluster over two long-lived connections (command + events, never `get nodeid`): polls
 * `get status` on an interval and at once after state events, refreshes memory now and then, and turns all of
 * it, with the state of both links, into tracker inputs. An operator action gets a short-lived session of its
 * own (see runAction).
 */
export class ClusterMonitor {
  private client: MgmClient | null = null;
  private stream: EventStream | null = null;
  private readonly poll: PollLoop;
  private readonly memoryRefresh: MemoryRefresh;
  private readonly backupReports: BackupReports;
  private readonly picture: LinkPicture;
  private lastSent = '';
  private errorAt = 0;
  private clientReady = false;
  private closed = false;
  private pollIntervalMs: number;
  /** When `get status` was last answered; null before the first answer. */
  private statusAt: number | null = null;
  private staleTimer: NodeJS.Timeout | null = null;
  private readonly tls: TlsWatch;
  private config: ConfigWatcher | null = null;
  /** The connectstring's management servers, then those learned from the configuration. */
  private targets: FailoverTargets | null = null;

  constructor(private readonly options: MonitorOptions) {
    this.picture = { connectstring: options.connectstring, command: null, session: null, events: null, firstHostIndex: null, lastError: null, retryAt: null, fatal: false, stale: false, refused: false, notReady: false, configMgmds: [] };
    this.tls = new TlsWatch(options.tls, options.certExpiryWarnDays ?? DEFAULT_CERT_EXPIRY_WARN_DAYS, () => this.publishConnection());
    this.poll = new PollLoop(() => this.pollOnce(), options.pollIntervalMs);
    this.pollIntervalMs = options.pollIntervalMs;
    this.memoryRefresh = new MemoryRefresh(() => this.refreshMemory(), options.memoryRefreshMs);
    this.backupReports = new BackupReports(() => this.reportBackup(), options.pollIntervalMs);
  }

  start(): void {
    try {
      const common = {
        connectstring: this.options.connectstring,
        requestTimeoutMs: this.options.requestTimeoutMs,
        connectTimeoutMs: this.options.requestTimeoutMs,
        ...(this.options.tls ? { tls: this.options.tls } : {}),
      };
      this.client = new MgmClient(common);
      this.stream = new EventStream({ ...common, readEveryMs: readEveryMs(this.options.pollIntervalMs) });
    } catch (err) {
      this.picture.fatal = true;
      this.noteError(err);
      return;
    }
    const client = this.client;
    const stream = this.stream;
    this.targets = new FailoverTargets(resolveConnectstring({ explicit: this.options.connectstring }).hosts, this.options.failover, (learned) => {
      if (this.closed) return;
      client.setFailoverHosts(learned);
      stream.setFailoverHosts(learned);
      this.picture.configMgmds = learned.map((h) => formatHostPort(h.host, h.port));
      this.publishConnection();
    });
    client.onState((s) => this.onCommandState(s));
    stream.events.on('state', (s) => {
      this.picture.events = s;
      // A lost event stream says why (silent, closed), as a lost command session does.
      if (s.lastError && s.status !== 'connected') this.noteError(s.lastError, 'event stream');
      else this.publishConnection();
    });
    stream.events.on('event', (e) => this.onEvent(e));
    stream.events.on('warning', (err) => this.noteError(err, 'event stream'));
    void this.keepTrying(() => stream.start(), 'event stream');
    this.config = new ConfigWatcher({
      // The engine has no use for connection sections: ask only for one node's links (spec §4.18).
      // A packed configuration of 255 nodes is a bulk transfer, not a ping: on a loaded host or a slow link it
      // can need more than the poll's deadline, and timing it out would drop a working session.
      fetch: (knownBody) => client.getConfigUnless(knownBody, { linksOf: 255 }, { timeoutMs: Math.max(CONFIG_TIMEOUT_MS, this.options.requestTimeoutMs) }),
      changed: (config) => {
        this.options.sink({ kind: 'config', t: Date.now(), config });
        void this.targets?.configured(config);
      },
      error: (err) => this.noteError(err, 'configuration'),
      periodMs: this.options.configRefreshMs ?? 30_000,
    });
    this.poll.start();
    this.memoryRefresh.start();
    this.watchStaleness();
  }

  setFailover(policy: FailoverPolicy): void {
    void this.targets?.setPolicy(policy);
  }

  setPollInterval(ms: number): void {
    this.pollIntervalMs = ms;
    this.poll.setInterval(ms);
    this.stream?.setReadEvery(readEveryMs(ms));
    this.watchStaleness();
  }

  /**
   * A server can keep the session up and stop answering `get status` (or answer too late): the data on screen
   * then ages while every link says connected. Checked every poll interval, not only when a poll ends, since a
   * stalled poll never ends before its timeout.
   */
  private watchStaleness(): void {
    if (this.staleTimer) clearInterval(this.staleTimer);
    this.staleTimer = setInterval(() => this.checkStale(), this.pollIntervalMs);
  }

  private checkStale(): void {
    const stale = this.statusAt !== null && Date.now() - this.statusAt > STALE_AFTER_POLLS * this.pollIntervalMs;
    if (stale === this.picture.stale) return;
    this.picture.stale = stale;
    // Stale can come before the request's own timeout: the header must still say why the data is ageing.
    if (stale && this.statusAt !== null) {
      const s = this.picture.command;
      const where = s?.host != null && s.port != null ? ` on ${s.host}:${s.port}` : '';
      this.noteError(`"get status" unanswered for ${((Date.now() - this.statusAt) / 1000).toFixed(1)} s${where}`);
    } else this.publishConnection();
  }

  async runAction(action: ParsedOperatorAction): Promise<ActionResult> {
    if (!this.client) return { ok: false, message: this.picture.lastError ?? 'not connected' };
    const stopping = action.kind === 'stop' || action.kind === 'restart';
    if (stopping) this.options.sink({ kind: 'requested', t: Date.now(), nodeId: action.nodeId, requested: true });
    // The server answers stop and restart only once the node is down and started again, minutes on a real
    // cluster, and a session answers one request at a time: on the poll's session the dashboard would freeze
    // for exactly the restart the operator is watching. So the action gets its own session, on the same
    // management server, closed when it returns (spec pitfall 17).
    const actionClient = new MgmClient({
      hosts: this.hostsFromCurrent(),
      requestTimeoutMs: this.options.requestTimeoutMs,
      connectTimeoutMs: this.options.requestTimeoutMs,
      reconnect: false,
      ...(this.options.tls ? { tls: this.options.tls } : {}),
    });
    try {
      await actionClient.connect();
      const message = await sendAction(actionClient, action);
      this.poll.trigger();
      return { ok: true, message };
    } catch (err) {
      if (stopping) this.options.sink({ kind: 'requested', t: Date.now(), nodeId: action.nodeId, requested: false });
      return { ok: false, message: refusalText(err) };
    } finally {
      actionClient.close();
    }
  }

  /** The management servers, the one the command connection uses first. */
  private hostsFromCurrent() {
    // The same list the command link dials, in its order: the connectstring's, then those from the configuration.
    const hosts = this.targets?.hosts ?? resolveConnectstring({ explicit: this.options.connectstring }).hosts;
    const current = this.client?.state.hostIndex ?? 0;
    return [...hosts.slice(current), ...hosts.slice(0, current)];
  }

  close(): void {
    this.closed = true;
    this.tls.close();
    this.config?.close();
    this.poll.close();
    this.memoryRefresh.close();
    this.backupReports.close();
    if (this.staleTimer) clearInterval(this.staleTimer);
    this.client?.close();
    this.stream?.close();
  }

  private async pollOnce(): Promise<void> {
    const client = this.client;
    if (!client || this.closed) return;
    try {
      if (!this.clientReady) {
        await client.connect().catch((err: unknown) => {
          // The poll loop is what tries again: the next attempt is the next poll.
          this.picture.retryAt = Date.now() + this.pollIntervalMs;
          throw err;
        });
        this.clientReady = true;
        this.picture.retryAt = null;
        void this.refreshMemory();
        this.backupReports.check();
        // Before the first status: a node that is down prints a placeholder node group, and only the
        // configuration says which group it is missing from (a failed read is reported and the poll goes on).
        await this.config?.check();
        this.config?.start();
      }
      const requestedAt = Date.now();
      const nodes = await client.getStatus();
      if (this.closed) return;
      this.statusAt = Date.now();
      this.options.sink({ kind: 'status', t: this.statusAt, requestedAt, nodes });
      this.picture.stale = false;
      this.picture.refused = false;
      this.picture.notReady = false;
      this.clearStaleError();
    } catch (err) {
      if (!this.closed) this.noteError(err);
    }
  }

  private async refreshMemory(): Promise<void> {
    if (!this.client || !this.clientReady || this.closed) return;
    try {
      const events = await this.client.dumpEvents(50);
      if (!this.closed) this.options.sink({ kind: 'memory', t: Date.now(), events });
    } catch (err) {
      if (!this.closed) this.noteError(err, 'memory report');
    }
  }

  /** `REPORT BackupStatus`: each data node's figures of the running backup, as events (none: no backup runs). */
  private async reportBackup(): Promise<boolean> {
    if (!this.client || !this.clientReady || this.closed) return false;
    try {
      const events = await this.client.dumpEvents(62);
      if (this.closed) return false;
      for (const e of events) this.options.sink({ kind: 'event', t: e.receivedAt, event: e });
      return events.length > 0;
    } catch (err) {
      if (!this.closed) this.noteError(err, 'backup report');
      throw err;
    }
  }

  private onEvent(e: ClusterEvent): void {
    if (this.closed) return;
    this.options.sink({ kind: 'event', t: e.receivedAt, event: e });
    this.backupReports.event(e.name);
    if (STATE_EVENTS.has(e.name)) this.poll.trigger();
    else if (e.name === 'MemoryUsage' && e.fields['gth'] !== 0) this.memoryRefresh.soon();
  }

  private onCommandState(s: LinkState): void {
    if (s.status === 'connected') {
      this.picture.firstHostIndex ??= s.hostIndex;
      this.picture.session = this.client?.session ?? null;
      // A management server answers again: an event stream still waiting out its backoff follows it at once (a
      // live or dialling stream is left alone, so this never opens a second event session).
      if (s.hostIndex !== null) this.stream?.follow(s.hostIndex);
      if (this.client) this.tls.connected(this.client);
      // A management server that comes back may carry a new configuration generation.
      if (this.picture.command !== null && this.picture.command.status !== 'connected' && this.clientReady) void this.config?.check();
    }
    this.picture.command = s;
    if (s.lastError) this.noteError(s.lastError);
    else this.publishConnection();
  }

  /** The first connection is retried by us; after that the link reconnects and fails over on its own. */
  private async keepTrying(open: () => Promise<void>, what: string): Promise<void> {
    while (!this.closed) {
      try {
        await open();
        return;
      } catch (err) {
        if (this.closed) return;
        this.noteError(err, what);
        await new Promise((r) => setTimeout(r, this.options.retryMs));
      }
    }
  }

  private noteError(err: unknown, what?: string): void {
    if (this.closed) return;
    this.tls.failed(err);
    // A session the server refuses is connected, not live: nothing it shows will ever be current. The refusal is the
    // session's, whichever request met it first (a memory report's, often): the header names no request for it.
    const refused = err instanceof AuthorizationError;
    if (refused) this.picture.refused = true;
    // Words of its own instead of the status: the server is there and answering, just not (yet) with the cluster.
    if (err instanceof UnexpectedReplyError && err.command === 'get status') this.picture.notReady = true;
    const text = safeErrorText(err);
    this.picture.lastError = what && !refused ? `${what}: ${text}` : text;
    this.errorAt = Date.now();
    this.publishConnection();
  }

  private clearStaleError(): void {
    const eventsLive = this.picture.events?.status === 'connected';
    if (this.picture.lastError !== null && eventsLive && Date.now() - this.errorAt > ERROR_STICKY_MS) {
      this.picture.lastError = null;
    }
    this.publishConnection();
  }

  /** Only real changes become inputs (and recording lines). */
  private publishConnection(): void {
    if (this.closed) return;
    if (this.options.tls) this.picture.tls = this.tls.view();
    const connection: ConnectionInput = connectionInput(this.picture);
    const key = JSON.stringify(connection);
    if (key === this.lastSent) return;
    this.lastSent = key;
    this.options.sink({ kind: 'connection', t: Date.now(), connection });
  }
}
