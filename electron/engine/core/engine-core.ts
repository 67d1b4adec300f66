import type { SqlSourceSpec } from '../facts/ndbinfo/sql-watch.js';
import type { ActionResult, ParsedOperatorAction } from '../../contract/schemas/actions.js';
import type { AppInfo, ProfileTls } from '../../contract/schemas/settings.js';
import type { ClusterSummary } from '../../contract/schemas/snapshot.js';
import type { FailoverPolicy } from '../facts/config/failover-targets.js';
import type { ClusterTracker } from '../cluster/cluster-tracker.js';
import type { TrackerInput } from '../cluster/tracker-input.js';
import type { SettingsStore } from './settings-store.js';
import type { SecretStore } from './secrets/secret-store.js';

/** What the engine needs from a live source of one cluster; replays have none. */
export interface ClusterSource {
  runAction(action: ParsedOperatorAction): Promise<ActionResult>;
  setPollInterval(ms: number): void;
  /** Whether management servers the configuration lists become failover targets. */
  setFailover(policy: FailoverPolicy): void;
  close(): void;
}

export interface ClusterEntry {
  readonly id: string;
  readonly connectstring: string;
  /** The connection's TLS (a profile's, or the command line's); absent: the engine's default. */
  tls?: ProfileTls;
  /** The cluster's SQL nodes for ndbinfo (a profile's, the command line's, the built-in simulator's); absent: none. */
  sql?: SqlSourceSpec;
  readonly tracker: ClusterTracker;
  source: ClusterSource | null;
}

/**
 * The engine as its handlers and services see it (`handlers.ts`, and the services in `features/`: maintenance
 * windows, profiles, runs, the rolling restart): they answer requests from this alone and never import the Engine
 * class, which registers them. This file names no service, so a service added later plugs in without a circle.
 */
export interface EngineCore {
  readonly host: AppInfo['host'];
  readonly appInfo: AppInfo;
  readonly actionsAllowed: boolean;
  readonly settings: SettingsStore;
  /** Where profiles' SQL passwords are kept (the desktop's OS keychain; elsewhere none). */
  readonly secrets: SecretStore;
  summaries(): ClusterSummary[];
  /**
   * `sql`: the profile's SQL node URLs; their password is the one given at start (a file or NDBTOP_SQL_PASSWORD),
   * else `storedPassword` (the profile's, from the secret store).
   */
  connectCluster(name: string, connectstring: string, tls?: ProfileTls, sql?: readonly string[], storedPassword?: string): ClusterSummary;
  removeCluster(id: string): boolean;
  /** The cluster with this id, or the first; a request error when there is none. */
  cluster(id: string | undefined): ClusterEntry;
  entries(): ClusterEntry[];
  /** Every input passes here: recorded first, then applied. */
  feed(id: string, input: TrackerInput): void;
}
