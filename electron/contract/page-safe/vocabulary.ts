/**
 * The contract's fixed word lists and channel names as plain constants, apart from the zod schemas built on them, so
 * the page can use them without loading zod or constructing a single schema (its validators are compiled at build
 * time: page-validators.ts).
 */

/** Series the engine keeps per second: cluster totals and per data node. */
export const METRICS = ['transactions', 'commits', 'reads', 'writes', 'scans', 'aborts', 'operations', 'dataMemory', 'indexMemory', 'hottestThread', 'redoFill'] as const;

/** The figures a run summary gives statistics for, each per second. */
export const RUN_FIGURES = ['transactions', 'reads', 'writes', 'scans', 'aborts'] as const;

/** What a run's bottleneck verdict can name: a data-node thread kind's CPU, a buffer or disk, or nothing inside the data nodes. */
export const BOTTLENECK_KINDS = ['ldm-cpu', 'tc-cpu', 'recv-cpu', 'send-cpu', 'main-cpu', 'send-buffer', 'redo-io', 'disk', 'outside-data-nodes', 'unknown'] as const;

/** Event severities from the least to the most severe, as ndb_mgm's CLUSTERLOG levels rank them. */
export const SEVERITIES = ['DEBUG', 'INFO', 'WARNING', 'ERROR', 'CRITICAL', 'ALERT'] as const;

/** What the engine raises alerts about. */
export const ALERT_KINDS = [
  'node-down',
  'connection-refused',
  'node-group-degraded',
  'node-group-offline',
  'arbitration',
  'memory-high',
  'memory-critical',
  'checkpoint-stall',
  'mgmd-lost',
  /** A management server other than the one ndbtop uses went down. */
  'mgmd-down',
  'mgmd-flapping',
  'event-stream-lost',
  'throughput-collapse',
  'cert-expiring',
  /** A data node's redo or undo log (its fullest part, from ndbinfo) ≥ 80 % / ≥ 90 % used. */
  'log-fill-high',
  'log-fill-critical',
  /** A data node's redo or undo log or DataMemory that will be full within 10 minutes at the rate it fills now. */
  'fill-soon',
  /** A data node's transporters overloaded or slowed down (ndbinfo `transporters`). */
  'transporter-overload',
  /** A data node starting for much longer than its starts usually take. */
  'restart-slow',
  /** A data node that began starting and fell back down before it was STARTED. */
  'restart-failed',
  /** A backup writing at under half the rate of the last one that completed. */
  'backup-slow',
] as const;

/** The push channel's name on Electron IPC and the envelope tag on the WebSocket. */
export const PUSH_CHANNEL = 'ndbtop:push';
export const REQUEST_CHANNEL_PREFIX = 'ndbtop:';

/**
 * Which management servers a connection fails over to: the connectstring's, then those the served configuration
 * lists (`from-config`, the default: a second mgmd is normally in the configuration), or only the connectstring's
 * (`connectstring-only`: a server that serves a hostile or wrong configuration cannot point ndbtop elsewhere).
 */
export const FAILOVER_POLICIES = ['from-config', 'connectstring-only'] as const;
export const DEFAULT_FAILOVER = 'from-config';
