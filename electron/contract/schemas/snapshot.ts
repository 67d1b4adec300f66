import { z } from 'zod';
import { AlertSchema } from './events.js';
import { RunSchema } from './runs.js';
import { MaintenanceWindowSchema } from './maintenance.js';
import { NodeGroupViewSchema, NodeViewSchema, RatesSchema } from './node.js';
import { RollingPlanViewSchema, RollingRestartSchema } from './rolling-restart.js';
import { NdbinfoNodeSchema, NdbinfoViewSchema } from './ndbinfo.js';
import { TlsViewSchema } from './tls.js';
import { BackupStatusSchema } from './backups.js';

/**
 * How the engine is connected, in the words the header shows. `failed-over` = live, but on another management
 * server than the first one we had. `stale` = connected, but `get status` has not been answered for
 * STALE_AFTER_POLLS poll intervals: the node data shown is old. `mode` says whether the cluster is real, the
 * built-in simulator or a replay. `refused` = connected, but the management server refuses our session's commands
 (it requires TLS and this session has none): `lastError` says why. `not-ready` = connected, but the management
 * server answers `get status` with a sentence of its own instead of the status (one waiting for arbitrator
 * selection while it starts): `lastError` quotes it; not a broken connection, and the session stays.
 */
export const ConnectionViewSchema = z.object({
  mode: z.enum(['live', 'simulated', 'replay']),
  status: z.enum(['connecting', 'live', 'reconnecting', 'failed-over', 'stale', 'offline', 'refused', 'not-ready']),
  connectstring: z.string(),
  mgmd: z
    .object({ host: z.string(), port: z.number().int(), nodeId: z.number().int().nullable(), since: z.number().int() })
    .nullable(),
  serverVersion: z.string().nullable(),
  failovers: z.number().int().nonnegative(),
  lastError: z.string().nullable(),
  /**
   * Why the cluster is not live, as it was when it stopped being live (the command link's error; a new one only when
   * the status changes, not at each retry or event-stream error), and since when; null while live. Absent from older
   * recordings.
   */
  trouble: z.object({ reason: z.string(), since: z.number().int() }).nullable().optional(),
  /** While no management server has answered yet: when the next attempt is due, so the UI can count down to it. */
  retryAt: z.number().int().nullable().optional(),
  /** The event link's state only: when events last came is the engine's (each report would move it). */
  eventStream: z.object({
    status: z.enum(['connecting', 'live', 'reconnecting', 'offline']),
  }),
  /** Absent in recordings made before TLS support. */
  tls: TlsViewSchema.nullable().optional(),
  /** Management servers (host:port) the configuration lists and the connectstring did not: added for failover. */
  configMgmds: z.array(z.string()).optional(),
});

export const BackupViewSchema = z.object({
  backupId: z.number().int(),
  status: z.enum(['running', 'completed', 'failed', 'aborted']),
  startedAt: z.number().int(),
  finishedAt: z.number().int().nullable(),
  bytes: z.number().nonnegative(),
  records: z.number().nonnegative(),
  error: z.string().nullable(),
});

export const ClusterSnapshotSchema = z.object({
  clusterId: z.string(),
  name: z.string(),
  connection: ConnectionViewSchema,
  /**
   * Time of the freshest `get status`; null before the first one. Every poll reads every node, so this is each
   * connected node's sample time too: it is kept once here, not per node, so a poll that changed nothing moves
   * no node in the delta. A node out of contact says since when in its `lastSeenAt`.
   */
  sampledAt: z.number().int().nullable(),
  nodes: z.array(NodeViewSchema),
  nodeGroups: z.array(NodeGroupViewSchema),
  masterNodeId: z.number().int().nullable(),
  singleUserApiNodeId: z.number().int().nullable(),
  rates: RatesSchema.nullable(),
  backup: BackupViewSchema.nullable(),
  /** The running backup with its progress and ETA, and those seen before; absent until the first backup event. */
  backups: BackupStatusSchema.optional(),
  alerts: z.array(AlertSchema),
  /** Benchmark runs of this session, oldest first. */
  runs: z.array(RunSchema).optional(),
  /** Generation of the configuration last read (getClusterConfig has it); null before, absent from older recordings. */
  configGeneration: z.number().int().nullable().optional(),
  /** Maintenance windows of this session, oldest first; absent from older recordings. */
  maintenance: z.array(MaintenanceWindowSchema).optional(),
  /** The current or just finished rolling restart (null: no data node down in the last 10 minutes); absent from older recordings. */
  rollingRestart: RollingRestartSchema.nullable().optional(),
  /** The rolling restart the engine conducts (planned, running or over); absent until the first plan. */
  rollingPlan: RollingPlanViewSchema.optional(),
  /** The SQL source's link, self-load and a summary of the links between nodes (the links: `getLinks`); null without an SQL source, absent before ndbinfo. */
  ndbinfo: NdbinfoViewSchema.nullable().optional(),
  /** Per data node ndbinfo figures, by node id (a node with none has no entry). */
  ndbinfoNodes: z.array(NdbinfoNodeSchema).optional(),
});

/** What changed since the previous push; absent keys did not change. Nodes are replaced whole, by id. */
export const SnapshotDeltaSchema = z.object({
  clusterId: z.string(),
  /** Sequence of the snapshot this delta applies to; a gap makes the UI ask for a full snapshot. */
  baseVersion: z.number().int().nonnegative(),
  version: z.number().int().positive(),
  nodes: z.array(NodeViewSchema).optional(),
  removedNodeIds: z.array(z.number().int()).optional(),
  connection: ConnectionViewSchema.optional(),
  sampledAt: z.number().int().nullable().optional(),
  nodeGroups: z.array(NodeGroupViewSchema).optional(),
  masterNodeId: z.number().int().nullable().optional(),
  singleUserApiNodeId: z.number().int().nullable().optional(),
  rates: RatesSchema.nullable().optional(),
  backup: BackupViewSchema.nullable().optional(),
  backups: BackupStatusSchema.optional(),
  alerts: z.array(AlertSchema).optional(),
  runs: z.array(RunSchema).optional(),
  configGeneration: z.number().int().nullable().optional(),
  maintenance: z.array(MaintenanceWindowSchema).optional(),
  rollingRestart: RollingRestartSchema.nullable().optional(),
  rollingPlan: RollingPlanViewSchema.optional(),
  ndbinfo: NdbinfoViewSchema.nullable().optional(),
  /** ndbinfo figures of the nodes that changed, whole, by id. */
  ndbinfoNodes: z.array(NdbinfoNodeSchema).optional(),
  removedNdbinfoNodeIds: z.array(z.number().int()).optional(),
});

export const ClusterSummarySchema = z.object({
  clusterId: z.string(),
  name: z.string(),
  connectstring: z.string(),
  mode: z.enum(['live', 'simulated', 'replay']),
  status: ConnectionViewSchema.shape.status,
  /** The most severe alert still open, so a picker can show which watched cluster needs a look. */
  worstAlert: z.enum(['warning', 'critical']).nullable().optional(),
});

/** Poll intervals without an answer to `get status` after which a connected cluster shows as `stale`. */
export const STALE_AFTER_POLLS = 3;

export type ConnectionView = z.infer<typeof ConnectionViewSchema>;
export type BackupView = z.infer<typeof BackupViewSchema>;
export type ClusterSnapshot = z.infer<typeof ClusterSnapshotSchema>;
export type SnapshotDelta = z.infer<typeof SnapshotDeltaSchema>;
export type ClusterSummary = z.infer<typeof ClusterSummarySchema>;
