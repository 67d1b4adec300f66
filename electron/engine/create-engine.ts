import type { ProfileTls, Settings } from '../contract/schemas/settings.js';
import type { SimulatorOptions } from '../../native-mgm/sim/index.js';
import { startSqlSimulator, type SqlSimulator } from '../../ndbinfo/sim/index.js';
import { parseSqlUrl } from '../../ndbinfo/client/sql-url.js';
import { PASSWORD_ENV } from '../../ndbinfo/client/password.js';
import { appVersion } from './core/app-version.js';
import { ClusterMonitor } from './cluster/cluster-monitor.js';
import { Engine } from './engine.js';
import type { TrackerInput } from './cluster/tracker-input.js';
import type { ClusterEntry, ClusterSource } from './core/engine-core.js';
import type { EngineHost } from './core/engine-host.js';
import { Recorder } from './recording/recorder.js';
import { createReplayEngine } from './recording/replay.js';
import { reportsOfRecording } from './features/runs/recording-runs.js';
import type { CollapseConfig } from './features/runs/collapse.js';
import { DEFAULT_SETTINGS, SettingsStore } from './core/settings-store.js';
import type { SecretStore } from './core/secrets/secret-store.js';
import { DEFAULT_CERT_EXPIRY_WARN_DAYS } from './facts/tls/tls-watch.js';
import type { FailoverPolicy } from './facts/config/failover-targets.js';
import { DEFAULT_FAILOVER } from '../contract/page-safe/vocabulary.js';
import { restartWatchHint, watchCluster } from './cluster/watch-cluster.js';
import type { SqlSourceSpec, SqlWatch, SqlWatchOptions } from './facts/ndbinfo/sql-watch.js';
import { join } from 'node:path';
import { resolveConnectstring } from '../../native-mgm/index.js';
import { restartOnSession } from './features/rolling/ports/mgm-cluster-port.js';
import { clusterIdentity } from './features/rolling/cluster-identity.js';
import { PlanStore } from './features/rolling/plan/plan-store.js';
import { RollingHost } from './features/rolling/rolling-host.js';
import type { PlanLimits } from './features/rolling/types.js';

export interface CreateEngineOptions {
  host: 'desktop' | 'serve';
  /** Clusters to watch; one without a connectstring is the built-in simulator. None given: the simulator. */
  clusters?: Array<{ name?: string; connectstring?: string; tls?: ProfileTls; sql?: SqlSourceSpec }>;
  /** Options for the built-in simulator; false: never start it. Its SQL node runs on an ephemeral port unless `sql: false`. */
  simulator?: (SimulatorOptions & { sql?: false }) | false;
  /** The password for SQL nodes of clusters added later (a profile's); default NDBTOP_SQL_PASSWORD. Wins over a profile's stored one. */
  sqlPassword?: string;
  /** Where profiles' SQL passwords are kept (the desktop's OS keychain); default none. */
  secrets?: SecretStore;
  /** The SQL source's intervals and deadlines (tests shorten them). */
  sqlWatch?: SqlWatchOptions;
  pollIntervalMs?: number;
  historySeconds?: number;
  actionsEnabled?: boolean;
  recordFile?: string;
  /** How often the recording opens a member with keyframes (default KEYFRAME_MS, 10 s; tests shorten it). */
  keyframeMs?: number;
  settingsFile?: string;
  /** How often memory is asked for with `dump events 50`; threshold events come in between. */
  memoryRefreshMs?: number;
  /** How long a request may take before the server counts as stalled (default 2.5 s: a stall shows within the 3 s budget). */
  requestTimeoutMs?: number;
  /** When a fall of cluster throughput is a collapse (alert and chart marker). */
  collapse?: CollapseConfig;
  /** How long memory must stay below an alert's clear mark before the alert is over (tests shorten it). */
  memoryAlertHoldMs?: number;
  /** Entries each cluster's event log keeps (default 10,000; the soak shortens it to see it full before judging). */
  eventLogSize?: number;
  /** How often the configuration is read again to notice a new generation. */
  configRefreshMs?: number;
  /** Failover targets for this run (`--failover`); otherwise the saved setting, else `from-config`. */
  failover?: FailoverPolicy;
  /** Where a rolling restart in progress is written (one file per cluster), so it survives a restart of ndbtop; absent: memory only. */
  rollingStateDir?: string;
  /** A hosted rolling restart's deadlines (tests shorten them); default the planner's. */
  rollingLimits?: PlanLimits;
}

// Its scenario begins when the engine first reads its status: what it does is all seen, however slow the start.
const DEFAULT_SIMULATOR: SimulatorOptions = { scenario: 'steady', dataNodes: 4, startWhenWatched: true };
/**
 * The embedded SQL node runs in the engine's process, a time slice at a time (ndbinfo/sim/sql/time-slice.ts): at 48
 * data nodes it holds the loop a few ms more than the engine's own ndbinfo work (`npm run bench sql-lag`). Past that
 * the answers themselves are the weight: at 144 data nodes transporters and transporter_details are ~21,000 rows each,
 * whose row builds are not cut and whose reading costs the engine itself up to ~0.35 s of loop (measured with the SQL
 * node apart), and the loop's delay came near the management server's request deadline on a loaded machine. So larger
 * simulated clusters bring no embedded SQL node; `ndbtop sim --sql-port` serves any size from a process of its own.
 */
export const EMBEDDED_SQL_MAX_DATA_NODES = 48;
const TICK_MS = 1000;

/** Builds and starts the live engine: one monitor per cluster, history ticks, optional recording. */
export async function createEngine(options: CreateEngineOptions): Promise<EngineHost & { readonly simulator: SqlSimulator | null }> {
  const overrides: Partial<Settings> = {
    ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
    ...(options.historySeconds !== undefined ? { historySeconds: options.historySeconds } : {}),
    ...(options.failover !== undefined ? { failover: options.failover } : {}),
  };
  const settings = new SettingsStore(DEFAULT_SETTINGS, options.settingsFile, overrides);
  const wanted = options.clusters && options.clusters.length > 0 ? options.clusters : [{}];
  const needsSim = wanted.some((c) => !c.connectstring);
  if (needsSim && options.simulator === false) throw new RangeError('no connectstring given and the built-in simulator is turned off');
  const { sql: simSql, ...simOptions } = options.simulator || {};
  // The built-in simulator brings its SQL node, so a first start shows ndbinfo figures without any setup.
  const withSql = simSql !== false && (simOptions.dataNodes ?? DEFAULT_SIMULATOR.dataNodes ?? 0) <= EMBEDDED_SQL_MAX_DATA_NODES;
  const simulator: SqlSimulator | null = needsSim ? await startSqlSimulator({ ...DEFAULT_SIMULATOR, ...simOptions, ...(withSql ? { sql: { port: 0 } } : {}) }) : null;

  const version = appVersion();
  const recorder = await openRecorder(options.recordFile, version, options.keyframeMs).catch(async (err: unknown) => {
    await simulator?.close();
    throw err;
  });

  let tick: NodeJS.Timeout | null = null;
  const engine: Engine = new Engine({
    host: options.host,
    version,
    actionsEnabled: options.actionsEnabled ?? false,
    ...(options.memoryAlertHoldMs !== undefined ? { memoryAlertHoldMs: options.memoryAlertHoldMs } : {}),
    ...(options.eventLogSize !== undefined ? { eventLogSize: options.eventLogSize } : {}),
    settings,
    ...(options.secrets ? { secrets: options.secrets } : {}),
    recorder,
    sqlPassword: options.sqlPassword ?? options.clusters?.find((c) => c.sql)?.sql?.password ?? (process.env[PASSWORD_ENV] || undefined),
    ...(options.collapse ? { collapse: options.collapse } : {}),
    connect: (entry) => watch(entry),
    recordingRuns: (file, source, onProgress) => reportsOfRecording(file, source, createReplayEngine, onProgress),
    onClose: async () => {
      if (tick) clearInterval(tick);
      await simulator?.close();
    },
  });

  function watch(entry: ClusterEntry): ClusterSource {
    let sqlWatch: SqlWatch | null = null;
    const hint = restartWatchHint((on) => sqlWatch?.setRestartWatch(on));
    const feed = (input: TrackerInput): void => {
      engine.feed(entry.id, input);
      hint(input);
      sqlWatch?.observe(input);
    };
    const monitor = new ClusterMonitor({
      connectstring: entry.connectstring,
      pollIntervalMs: settings.get().pollIntervalMs,
      memoryRefreshMs: options.memoryRefreshMs ?? 15_000,
      requestTimeoutMs: options.requestTimeoutMs ?? 2500,
      retryMs: 2000,
      ...(options.configRefreshMs !== undefined ? { configRefreshMs: options.configRefreshMs } : {}),
      sink: (input) => feed(input),
      ...(entry.tls ? { tls: entry.tls } : {}),
      certExpiryWarnDays: settings.get().certExpiryWarnDays ?? DEFAULT_CERT_EXPIRY_WARN_DAYS,
      failover: settings.get().failover ?? DEFAULT_FAILOVER,
    });
    const source = watchCluster(monitor, entry.sql ?? null, feed, options.sqlWatch);
    sqlWatch = source.sqlWatch;
    const rolling = hostRollingRestart(entry, feed, settings.get().pollIntervalMs, options);
    engine.rolling.set(entry, rolling);
    return { ...source, close: () => (rolling.close(), source.close()) };
  }

  for (const c of wanted) {
    const simulated = !c.connectstring;
    const connectstring = c.connectstring ?? simulator?.connectstring ?? '';
    const entry = engine.addCluster(c.name ?? (simulated ? 'Simulated cluster' : connectstring), connectstring, simulated ? 'simulated' : 'live');
    if (c.tls) entry.tls = c.tls;
    const sql = c.sql ?? (simulated && simulator?.sql ? { addresses: [parseSqlUrl(simulator.sql.url)], password: undefined } : undefined);
    if (sql) entry.sql = sql;
    entry.source = watch(entry);
  }
  tick = setInterval(() => {
    const t = Date.now();
    for (const e of engine.entries()) engine.feed(e.id, { kind: 'tick', t });
  }, TICK_MS);

  return Object.assign(engine, { simulator });
}

/** The cluster's hosted rolling restart: observes through the tracker, restarts on a session of its own. */
function hostRollingRestart(entry: ClusterEntry, feed: (input: TrackerInput) => void, pollIntervalMs: number, options: CreateEngineOptions): RollingHost {
  const timeoutMs = options.requestTimeoutMs ?? 2500;
  const dir = options.rollingStateDir;
  // Resolved when used: an unparsable connectstring leaves the cluster offline with its reason (the monitor says
  // it), and no plan can be made without the configuration, so nothing here may throw at start.
  const mgm = () => ({ hosts: resolveConnectstring({ explicit: entry.connectstring }).hosts, ...(entry.tls ? { tls: entry.tls } : {}), connectTimeoutMs: timeoutMs, requestTimeoutMs: timeoutMs });
  return new RollingHost({
    side: {
      snapshot: () => entry.tracker.snapshot(),
      config: () => entry.tracker.configView(),
      get events() {
        return { ...mgm(), reconnect: true };
      },
      restart: (nodeIds, bounds) => restartOnSession(mgm(), nodeIds, bounds),
      now: Date.now,
    },
    cluster: entry.connectstring,
    feed,
    checkRun: (input) => entry.tracker.runs.book.check(input),
    replicas: () => entry.tracker.replicas(),
    identity: () => {
      const config = entry.tracker.configView();
      return config ? clusterIdentity(config) : null;
    },
    store: dir ? (cluster) => new PlanStore(join(dir, 'rolling-restart', `${cluster.key}.json`), cluster) : null,
    ...(dir ? { legacyFile: join(dir, `rolling-restart-${entry.connectstring.replace(/[^A-Za-z0-9.-]+/g, '_')}.json`) } : {}),
    pollIntervalMs,
    ...(options.rollingLimits ? { limits: options.rollingLimits } : {}),
  });
}

async function openRecorder(file: string | undefined, version: string, keyframeMs: number | undefined): Promise<Recorder | null> {
  return file ? new Recorder(file, version, Date.now, keyframeMs) : null;
}
