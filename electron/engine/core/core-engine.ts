import type { PushMessage } from '../../contract/schemas/channels.js';
import type { AppInfo, ProfileTls } from '../../contract/schemas/settings.js';
import type { ClusterSummary, ConnectionView } from '../../contract/schemas/snapshot.js';
import { ClusterTracker, type TrackerOptions } from '../cluster/cluster-tracker.js';
import type { ClusterEntry, ClusterSource, EngineCore } from './engine-core.js';
import { EngineRequestError } from './engine-error.js';
import { worstOpenAlert } from './input/worst-alert.js';
import { PushHub } from './push/push-hub.js';
import type { Recorder } from '../recording/recorder.js';
import type { SettingsStore } from './settings-store.js';
import { NO_SECRET_STORE, type SecretStore } from './secrets/secret-store.js';
import type { RateInstances } from '../facts/rates/rates.js';
import type { TrackerInput } from '../cluster/tracker-input.js';
import { parseSqlUrl, type SqlNodeAddress } from '../../../ndbinfo/client/sql-url.js';
import { NdbinfoError } from '../../../ndbinfo/client/errors.js';

/** A profile's SQL node URLs, checked: a bad one is the request's error (its message never repeats a password). */
function sqlAddresses(urls: readonly string[] | undefined): SqlNodeAddress[] {
  try {
    return (urls ?? []).map(parseSqlUrl);
  } catch (err) {
    if (err instanceof NdbinfoError) throw new EngineRequestError('INVALID', err.message);
    throw err;
  }
}

/** Each watched cluster holds two connections, history and a tracker: a bound keeps one client from exhausting the host. */
export const MAX_CLUSTERS = 32;

export interface CoreConfig {
  host: AppInfo['host'];
  version: string;
  actionsEnabled: boolean;
  memoryAlertHoldMs?: number;
  /** Entries each cluster's event log keeps (default 10,000). */
  eventLogSize?: number;
  settings: SettingsStore;
  /** Where profiles' SQL passwords are kept; default none (serve, replay). */
  secrets?: SecretStore;
  recorder: Recorder | null;
  /** When a fall of throughput raises a collapse alert; default: by half within 10 s. */
  collapse?: TrackerOptions['collapse'];
  /** Starts watching a cluster the user adds; absent where clusters cannot be added (replay). */
  connect?: (entry: ClusterEntry) => ClusterSource;
  /** The SQL password for clusters added with SQL nodes (a profile's): from a file or NDBTOP_SQL_PASSWORD at start. */
  sqlPassword?: string | undefined;
  /** Runs summarised as their ticks go by (`TrackerOptions.streamRuns`): a report's replay. */
  streamRuns?: TrackerOptions['streamRuns'];
  /** Closed with the engine: the built-in simulator, a replay's player. */
  onClose?: () => Promise<void>;
}

/**
 * The engine's core, shared by live monitoring and replay: clusters (each a tracker, and for live ones a source that
 * feeds it), the push hub, settings and the recorder. Services see it as `EngineCore` and never import it; the
 * composition root (`engine.ts`) registers them on it.
 */
export class CoreEngine implements EngineCore {
  readonly hub = new PushHub();
  private readonly clusters = new Map<string, ClusterEntry>();
  private nextId = 1;
  private closed = false;

  constructor(readonly config: CoreConfig) {
    if (config.recorder) {
      const recorder = config.recorder;
      this.hub.subscribe((m) => recorder.onPush(m));
      recorder.digestFrom((t, final) => [...this.clusters.values()].flatMap((e) => e.tracker.takeDigest(t, final) ?? []));
    }
  }

  get appInfo(): AppInfo {
    return { version: this.config.version, host: this.config.host, actionsEnabled: this.actionsAllowed, sqlPasswordStore: this.secrets.kind };
  }

  get actionsAllowed(): boolean {
    return this.config.actionsEnabled && this.config.host !== 'replay';
  }

  get host(): AppInfo['host'] {
    return this.config.host;
  }

  get settings(): SettingsStore {
    return this.config.settings;
  }

  get secrets(): SecretStore {
    return this.config.secrets ?? NO_SECRET_STORE;
  }

  subscribe(listener: (message: PushMessage) => void): () => void {
    return this.hub.subscribe(listener);
  }

  addCluster(
    name: string,
    connectstring: string,
    mode: ConnectionView['mode'],
    id = `c${this.nextId}`,
    at = Date.now(),
    collapse = this.config.collapse,
    rateInstances: RateInstances = 'configuration',
  ): ClusterEntry {
    this.nextId += 1;
    const hub = this.hub;
    const tracker = new ClusterTracker(
      id,
      name,
      { connectstring, mode, historySeconds: this.config.settings.get().historySeconds, collapse, memoryAlertHoldMs: this.config.memoryAlertHoldMs, eventLogSize: this.config.eventLogSize, rateInstances, streamRuns: this.config.streamRuns, digest: this.config.recorder !== null },
      {
        changed: (urgent) => hub.changed(id, urgent),
        events: (views) => hub.events(id, views),
        alert: (alert) => {
          hub.alert(id, alert);
          // After the input that raised it is fully applied: the cluster list carries each cluster's worst alert.
          queueMicrotask(() => this.refreshWorstAlert(id));
        },
        history: (point) => hub.history(id, point),
      },
    );
    const entry: ClusterEntry = { id, connectstring, tracker, source: null };
    this.clusters.set(id, entry);
    // The collapse settings and how rates count instances go with the cluster, so a replay (and `ndbtop report`)
    // derives the rates and raises the alerts live did.
    this.config.recorder?.write({ c: id, kind: 'cluster', t: at, name, connectstring, mode, ...(collapse ? { collapse } : {}), rateInstances });
    hub.addCluster(id, () => tracker.snapshot());
    hub.clusters(this.summaries());
    return entry;
  }

  /** A cluster the user adds from the UI: only where the engine can connect to clusters. */
  connectCluster(name: string, connectstring: string, tls?: ProfileTls, sql?: readonly string[], storedPassword?: string): ClusterSummary {
    const connect = this.config.connect;
    if (!connect) throw new EngineRequestError('UNSUPPORTED', `a ${this.config.host} cannot watch further clusters`);
    if (this.clusters.size >= MAX_CLUSTERS) throw new EngineRequestError('UNSUPPORTED', `already watching ${MAX_CLUSTERS} clusters, the most one ndbtop watches`);
    const addresses = sqlAddresses(sql);
    const entry = this.addCluster(name, connectstring, 'live');
    if (tls) entry.tls = tls;
    // A password given at start (--sql-password-file, NDBTOP_SQL_PASSWORD) wins over a profile's stored one.
    if (addresses.length > 0) entry.sql = { addresses, password: this.config.sqlPassword ?? storedPassword };
    entry.source = connect(entry);
    return this.summary(entry);
  }

  removeCluster(id: string): boolean {
    const entry = this.clusters.get(id);
    if (!entry) return false;
    entry.source?.close();
    this.clusters.delete(id);
    this.worstAlerts.delete(id);
    this.hub.removeCluster(id);
    this.hub.clusters(this.summaries());
    return true;
  }

  /** Every input passes here: recorded first, then applied. */
  feed(id: string, input: TrackerInput): void {
    const entry = this.clusters.get(id);
    if (!entry || this.closed) return;
    this.config.recorder?.write({ c: id, ...input });
    const statusBefore = input.kind === 'connection' ? entry.tracker.overview().connection.status : null;
    entry.tracker.apply(input);
    // The cluster list shows each cluster's state; re-send it when one changes, not only when clusters come and go.
    if (statusBefore !== null && entry.tracker.overview().connection.status !== statusBefore) this.hub.clusters(this.summaries());
  }

  cluster(id: string | undefined): ClusterEntry {
    const entry = id === undefined ? this.clusters.values().next().value : this.clusters.get(id);
    if (!entry) throw new EngineRequestError('NOT_FOUND', id === undefined ? 'no cluster is being watched' : `no cluster with id ${JSON.stringify(id)}`);
    return entry;
  }

  entries(): ClusterEntry[] {
    return [...this.clusters.values()];
  }

  summary(entry: ClusterEntry): ClusterSummary {
    const snap = entry.tracker.overview();
    return { clusterId: entry.id, name: snap.name, connectstring: entry.connectstring, mode: snap.connection.mode, status: snap.connection.status, worstAlert: worstOpenAlert(snap.alerts) };
  }

  private readonly worstAlerts = new Map<string, string | null>();

  private refreshWorstAlert(id: string): void {
    const entry = this.clusters.get(id);
    if (!entry || this.closed) return;
    const worst = worstOpenAlert(entry.tracker.overview().alerts);
    if (this.worstAlerts.get(id) === worst) return;
    this.worstAlerts.set(id, worst);
    this.hub.clusters(this.summaries());
  }

  summaries(): ClusterSummary[] {
    return this.entries().map((e) => this.summary(e));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    for (const e of this.clusters.values()) e.source?.close();
    this.hub.close();
    this.closed = true;
    this.config.recorder?.close();
    await this.config.onClose?.();
  }
}
