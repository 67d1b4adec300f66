import { resolveConnectstring, type MgmHost } from '../connectstring.js';
import { CATEGORY_NUMBERS, type Category } from '../events/catalogue.js';
import type { Reply, ReplyShape } from '../protocol/frames.js';
import { parseStartBackupReply } from '../protocol/messages/backup.js';
import { DumpEventRecords, parseDumpEventsReply } from '../protocol/messages/dump-events.js';
import type { ClusterConfig } from '../config/cluster-config.js';
import { parseConfigBody, parseConfigReply } from '../protocol/messages/config.js';
import { decodeConfig } from '../config/decode.js';
import { encodeVersion } from '../version.js';
import { parseClusterLogFilterReply, parseClusterLogLevelsReply, parseSetLogFilterReply } from '../protocol/messages/log-levels.js';
import { parseNodeCommandReply, type NodeCommandResult } from '../protocol/messages/node-command.js';
import { parseResultReply } from '../protocol/messages/result.js';
import { StatusLines } from '../protocol/messages/status.js';
import type { RequestArgs } from '../protocol/request.js';
import { parseListCertsReply, parseTlsStatsReply, type SessionCert, type TlsStats } from '../protocol/messages/tls.js';
import type { MgmTlsOptions } from '../tls/credentials.js';
import { TlsUpgrader, type TlsSessionInfo } from './tls/tls-upgrade.js';
import type { ClusterEvent, NodeState, NodeType } from '../types.js';
import type { BackoffOptions } from './backoff.js';
import { bootstrapSession, CLIENT_VERSION, type SessionInfo } from './bootstrap.js';
import { Link, type LinkState } from './link.js';

export interface MgmClientOptions {
  /** Connectstring as NDB tools take it; when absent, NDB_CONNECTSTRING, Ndb.cfg, then localhost:1186. */
  connectstring?: string;
  hosts?: ReadonlyArray<MgmHost>;
  connectTimeoutMs?: number;
  /** Ordinary commands; a monitor must notice a stalled server quickly. */
  requestTimeoutMs?: number;
  /** stop/restart/backup reply only when done (spec §4.13, pitfall 17); mgmapi allows 5 minutes. */
  slowRequestTimeoutMs?: number;
  /** Keep reconnecting in the background after a loss (failing over along the list). */
  reconnect?: boolean;
  backoff?: BackoffOptions;
  /** `start tls` on every session (spec §9); absent: clear text, as before NDB 8.3. */
  tls?: MgmTlsOptions;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface RestartOptions {
  initial?: boolean;
  noStart?: boolean;
  abort?: boolean;
  /** Danger: a refused restart becomes a restart of all data nodes (spec §4.14). */
  force?: boolean;
}

export interface StopOptions {
  abort?: boolean;
  /** Danger: a refused stop becomes a stop of all data nodes (spec §4.14). */
  force?: boolean;
}

export interface BackupOptions {
  /** 0 = reply when accepted, 1 = when started, 2 = when completed (spec §4.12). */
  wait?: 0 | 1 | 2;
  backupId?: number;
  /** 'end' (default) = consistent at the end of the backup, 'start' = at its start. */
  snapshot?: 'end' | 'start';
}

/**
 * `set logfilter` levels (spec §14.1): 0 the master switch, 1..6 the severities, 7 a switch for all of them (the
 * master switch too), offered only as `all`; `get info clusterlog` lists 0..6 by name.
 */
const SEVERITY_LEVELS = { enabled: 0, debug: 1, info: 2, warning: 3, error: 4, critical: 5, alert: 6, all: 7 } as const;
export type ClusterLogSeverity = keyof typeof SEVERITY_LEVELS;

/**
 * The command connection to a cluster's management servers, with every monitoring and operator command
 * typed. Requests are serialised on one session; events need their own connection (EventStream).
 */
export class MgmClient {
  private readonly link: Link<SessionInfo>;
  private readonly requestTimeoutMs: number;
  private readonly slowRequestTimeoutMs: number;
  private readonly tlsUpgrader: TlsUpgrader | null;

  constructor(options: MgmClientOptions = {}) {
    const hosts = options.hosts ?? resolveConnectstring({ explicit: options.connectstring }).hosts;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
    this.slowRequestTimeoutMs = options.slowRequestTimeoutMs ?? 300_000;
    const upgrader = options.tls ? new TlsUpgrader(options.tls, this.requestTimeoutMs) : null;
    this.tlsUpgrader = upgrader;
    this.link = new Link(
      hosts,
      {
        connectTimeoutMs: options.connectTimeoutMs ?? 3000,
        reconnect: options.reconnect ?? true,
        ...(options.backoff ? { backoff: options.backoff } : {}),
        ...(upgrader ? { secure: (socket, host, port, signal) => upgrader.secure(socket, host, port, signal) } : {}),
      },
      (conn, signal) =>
        bootstrapSession(conn, { timeoutMs: this.requestTimeoutMs, signal }).catch((err: unknown) => {
          throw upgrader?.explain(err) ?? err;
        }),
    );
  }

  /** How the current (or last) session is secured; null when TLS is not configured. */
  get tls(): TlsSessionInfo | null {
    return this.tlsUpgrader?.session ?? null;
  }

  getTlsStats(options?: CallOptions): Promise<TlsStats> {
    return this.call('get tls stats', [], kv('get tls stats reply'), parseTlsStatsReply, options);
  }

  /** Which sessions of this management server use which client certificate. */
  listCerts(options?: CallOptions): Promise<SessionCert[]> {
    return this.call('list certs', [], kv('list certs reply'), parseListCertsReply, options);
  }

  get state(): LinkState {
    return this.link.state;
  }

  /** Server version and mgmd node id of the current session, null while not connected. */
  get session(): SessionInfo | null {
    return this.link.sessionInfo;
  }

  /**
   * Management servers the connectstring did not name (the configuration lists them): failed over to after its
   * own. Each call replaces the list the last one gave.
   */
  setFailoverHosts(hosts: ReadonlyArray<MgmHost>): void {
    this.link.setExtraHosts(hosts);
  }

  onState(listener: (state: LinkState) => void): () => void {
    this.link.events.on('state', listener);
    return () => this.link.events.off('state', listener);
  }

  connect(signal?: AbortSignal): Promise<void> {
    return this.link.open(signal);
  }

  close(): void {
    this.link.close();
  }

  getStatus(types?: readonly NodeType[], options?: CallOptions): Promise<NodeState[]> {
    // The server reads at most 3 names, separated by single spaces, and lists a group again each time it is
    // named (spec §5.2): each type is named once, so no node comes twice.
    const args: RequestArgs = types && types.length > 0 ? [['types', [...new Set(types)].join(' ')]] : [];
    // Lines go straight into typed node records as the reply streams in, not through key/value pairs.
    const lines = new StatusLines();
    return this.call('get status', args, { kind: 'kv', header: 'node status', sink: lines }, (r) => lines.finish(r), options);
  }

  checkConnection(options?: CallOptions): Promise<void> {
    return this.call('check connection', [], kv('check connection reply'), (r) => void parseResultReply(r, 'check connection'), options);
  }

  async restart(nodeIds: readonly number[], opts: RestartOptions = {}, options?: CallOptions): Promise<NodeCommandResult> {
    const args: RequestArgs = [
      ['node', nodeList(nodeIds)],
      ['initialstart', flag(opts.initial)],
      ['nostart', flag(opts.noStart)],
      ['abort', flag(opts.abort)],
      ['force', flag(opts.force)],
    ];
    return this.slowCall('restart node v2', args, kv('restart reply'), (r) => parseNodeCommandReply(r, 'restart', 'restarted'), options);
  }

  async stop(nodeIds: readonly number[], opts: StopOptions = {}, options?: CallOptions): Promise<NodeCommandResult> {
    const args: RequestArgs = [
      ['node', nodeList(nodeIds)],
      ['abort', flag(opts.abort)],
      ['force', flag(opts.force)],
    ];
    return this.slowCall('stop v2', args, kv('stop reply'), (r) => parseNodeCommandReply(r, 'stop', 'stopped'), options);
  }

  /** Starts a data node waiting in NOT_STARTED (after `--nostart` or a restart with noStart). */
  start(nodeId: number, options?: CallOptions): Promise<void> {
    return this.call('start', [['node', nodeId]], kv('start reply'), (r) => void parseResultReply(r, 'start'), options);
  }

  startAll(options?: CallOptions): Promise<number> {
    return this.call('start all', [], kv('start reply'), (r) => parseNodeCommandReply(r, 'start all', 'started').count, options);
  }

  startBackup(opts: BackupOptions = {}, options?: CallOptions): Promise<{ backupId: number | null }> {
    const wait = opts.wait ?? 2;
    const args: RequestArgs = [
      ['completed', wait],
      ...(opts.backupId !== undefined ? ([['backupid', opts.backupId]] as const) : []),
      ['backuppoint', opts.snapshot === 'start' ? 1 : 0],
    ];
    const parse = parseStartBackupReply;
    return wait === 0 ? this.call('start backup', args, kv('start backup reply'), parse, options) : this.slowCall('start backup', args, kv('start backup reply'), parse, options);
  }

  abortBackup(backupId: number, options?: CallOptions): Promise<void> {
    return this.call('abort backup', [['id', backupId]], kv('abort backup reply'), (r) => void parseResultReply(r, 'abort backup'), options);
  }

  enterSingleUser(apiNodeId: number, options?: CallOptions): Promise<void> {
    return this.call('enter single user', [['nodeId', apiNodeId]], kv('enter single user reply'), (r) => void parseResultReply(r, 'enter single user'), options);
  }

  exitSingleUser(options?: CallOptions): Promise<void> {
    return this.call('exit single user', [], kv('exit single user reply'), (r) => void parseResultReply(r, 'exit single user'), options);
  }

  /** Sends DUMP codes to one data node; the output goes to that node's log, not to us (spec §4.11). */
  async dumpState(nodeId: number, codes: readonly number[], options?: CallOptions): Promise<void> {
    if (codes.length === 0 || codes.length > 25) throw new RangeError('dump state takes 1 to 25 integers');
    const args: RequestArgs = [
      ['node', nodeId],
      ['args', codes.map((c) => String(Math.trunc(c))).join(' ')],
    ];
    return this.call('dump state', args, kv('dump state reply'), (r) => void parseResultReply(r, 'dump state'), options);
  }

  /** Asks data nodes for a report now (50 MemoryUsage, 62 BackupStatus, 81 SavedEvent); records come inline. */
  dumpEvents(type: 50 | 62 | 81, nodeIds?: readonly number[], options?: CallOptions): Promise<ClusterEvent[]> {
    const args: RequestArgs = [['type', type], ...(nodeIds && nodeIds.length > 0 ? ([['nodes', nodeIds.join(',')]] as const) : [])];
    const records = new DumpEventRecords();
    return this.call('dump events', args, { kind: 'dump-events', records }, (r) => parseDumpEventsReply(r, Date.now(), records), options);
  }

  /** Which severities ndb_mgmd writes to its cluster log (not what listeners receive). */
  getClusterLogFilter(options?: CallOptions): Promise<Record<string, boolean>> {
    return this.call('get info clusterlog', [], kv('clusterlog'), parseClusterLogFilterReply, options);
  }

  /** Turns one severity of the cluster log on or off (`all`: every one); returns its new state. */
  setClusterLogFilter(severity: ClusterLogSeverity, enable: boolean, options?: CallOptions): Promise<boolean> {
    const args: RequestArgs = [
      ['level', SEVERITY_LEVELS[severity]],
      ['enable', enable ? 1 : 0],
    ];
    return this.call('set logfilter', args, kv('set logfilter reply'), parseSetLogFilterReply, options);
  }

  getClusterLogLevels(options?: CallOptions): Promise<Record<string, number>> {
    return this.call('get cluster loglevel', [], kv('get cluster loglevel'), parseClusterLogLevelsReply, options);
  }

  setClusterLogLevel(category: Category, level: number, options?: CallOptions): Promise<void> {
    const args: RequestArgs = [
      ['node', 0],
      ['category', CATEGORY_NUMBERS[category]],
      ['level', level],
    ];
    return this.call('set cluster loglevel', args, kv('set cluster loglevel reply'), (r) => void parseResultReply(r, 'set cluster loglevel'), options);
  }

  /**
   * The cluster's configuration (`get config_v2`, spec §4.18); `fromNode` asks for the one that data node uses,
   * `linksOf` keeps only the connection sections of that node (a large cluster has tens of thousands; the
   * operator's Go client sends 255 for a small reply). We announce ourselves as an API node (mgmapi's node type 1),
   * as the spec's example does.
   */
  getConfig(opts: ConfigRequest = {}, options?: CallOptions): Promise<ClusterConfig> {
    return this.call('get config_v2', configArgs(opts), { kind: 'config' }, parseConfigReply, options);
  }

  /**
   * The configuration only when its packed form differs from `knownBody` (the `body` of an earlier read): a
   * watcher that reads it every half minute decodes a 255-node configuration only when it changed.
   */
  async getConfigUnless(knownBody: string | null, opts: ConfigRequest = {}, options?: CallOptions): Promise<{ body: string; config: ClusterConfig | null }> {
    const body = await this.call('get config_v2', configArgs(opts), { kind: 'config' }, parseConfigBody, options);
    return { body, config: body === knownBody ? null : decodeConfig(body) };
  }

  /** Puts an event into the cluster log as if `sourceNodeId` reported it (spec §4.17), e.g. a benchmark marker. */
  async reportEvent(words: readonly number[], options?: CallOptions): Promise<void> {
    if (words.length === 0 || words.length > 25) throw new RangeError('report event takes 1 to 25 words');
    const args: RequestArgs = [
      ['length', words.length],
      ['data', words.map((w) => String(w >>> 0)).join(' ')],
    ];
    return this.call('report event', args, kv('report event reply'), (r) => void parseResultReply(r, 'report event', 'ok'), options);
  }

  private slowCall<T>(command: string, args: RequestArgs, shape: ReplyShape, parse: (r: Reply) => T, options?: CallOptions): Promise<T> {
    return this.call(command, args, shape, parse, { timeoutMs: this.slowRequestTimeoutMs, ...options });
  }

  private call<T>(command: string, args: RequestArgs, shape: ReplyShape, parse: (r: Reply) => T, options: CallOptions = {}): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
    // A plain chain, not async/await: one promise hop fewer per request (a poll of 255 nodes counts them).
    return this.link.session(timeoutMs, options.signal).then(({ conn }) => conn.request(command, args, shape, parse, { timeoutMs, signal: options.signal }));
  }
}

const kv = (header: string): ReplyShape => ({ kind: 'kv', header });
const flag = (b: boolean | undefined): number => (b ? 1 : 0);

/** `fromNode`: the configuration that data node uses; `linksOf`: only that node's connection sections. */
export interface ConfigRequest {
  fromNode?: number;
  linksOf?: number;
}

function configArgs(opts: ConfigRequest): RequestArgs {
  return [
    ['version', encodeVersion(CLIENT_VERSION.major, CLIENT_VERSION.minor, CLIENT_VERSION.build)],
    ['nodetype', 1],
    ...(opts.linksOf !== undefined ? ([['node', opts.linksOf]] as const) : []),
    ['from_node', opts.fromNode ?? 0],
  ];
}

function nodeList(ids: readonly number[]): string {
  if (ids.length === 0) throw new RangeError('no node ids given');
  for (const id of ids) if (!Number.isInteger(id) || id < 1 || id > 255) throw new RangeError(`not a node id: ${id}`);
  return ids.join(' ');
}
