import { z } from 'zod';
import { FillTrendSchema } from './fill-trend.js';

/** Words exactly as the protocol prints them, so UI and CLI show what an operator knows from ndb_mgm. */
export const NodeTypeSchema = z.enum(['NDB', 'MGM', 'API']);
export const NodeStatusSchema = z.enum([
  'UNKNOWN',
  'NO_CONTACT',
  'NOT_STARTED',
  'STARTING',
  'STARTED',
  'SHUTTING_DOWN',
  'RESTARTING',
  'SINGLE USER MODE',
  'RESUME',
  'CONNECTED',
]);

const Millis = z.number().int().nonnegative();

/** Throughput over one statistics window: per-second rates from the summed per-instance deltas (spec §7.3). */
const RateValuesSchema = z.object({
  windowMs: z.number().int().positive(),
  transactions: z.number().nonnegative(),
  commits: z.number().nonnegative(),
  reads: z.number().nonnegative(),
  simpleReads: z.number().nonnegative(),
  writes: z.number().nonnegative(),
  scans: z.number().nonnegative(),
  rangeScans: z.number().nonnegative(),
  aborts: z.number().nonnegative(),
  /** LQH operations per second (OperationReportCounters). */
  operations: z.number().nonnegative(),
  /** Gauge: operations in flight at the last reports, summed over TC instances. */
  concurrentOps: z.number().nonnegative(),
  /** Reports dropped as impossible (≥ 2³¹ or beyond any data node's speed) since monitoring began. */
  rejectedReports: z.number().int().nonnegative().optional(),
});

/**
 * A data node's rates: values, not when its reports arrived. Freshness is the engine's to judge and shows as
 * `stale`, so an idle node's next zeros change nothing and a delta leaves the node out.
 */
export const NodeRatesSchema = RateValuesSchema.extend({
  /** Older than two report periods, or of a node not connected: the last values seen, not current ones. */
  stale: z.boolean().optional(),
});

/**
 * The cluster total: the sum over data nodes with fresh reports (null when none is). Values, not when the newest
 * report arrived, so an idle cluster's zeros change nothing; `contributing` says how current it is.
 */
export const RatesSchema = RateValuesSchema.extend({
  /** How many data nodes had fresh reports and were summed, of how many. */
  contributing: z.object({ nodes: z.number().int().nonnegative(), of: z.number().int().nonnegative() }).optional(),
});

export const MemoryUseSchema = z.object({
  usedPages: z.number().int().nonnegative(),
  totalPages: z.number().int().nonnegative(),
  pageSizeBytes: z.number().int().positive(),
  /** 0..100 */
  percent: z.number().nonnegative(),
  /**
   * Figures, not when they arrived, so a refresh that reports the same pages changes nothing and a delta leaves
   * the node out. true: the last figures seen, not current ones (the newest memory refresh had none from the node,
   * or the node is not connected).
   */
  stale: z.boolean().optional(),
  /** The trend of `percent` over the last memory rounds; null until there are enough (absent from older recordings). */
  trend: FillTrendSchema.nullable().optional(),
});

export const PhaseTimingSchema = z.object({
  phase: z.number().int(),
  startedAt: Millis,
  /** null while the phase is still running. */
  durationMs: z.number().int().nonnegative().nullable(),
});

export const RestartProgressSchema = z.object({
  startedAt: Millis,
  /** Last completed start phase as get status / StartPhaseCompleted report it. */
  phase: z.number().int(),
  phases: z.array(PhaseTimingSchema),
  /** From earlier restarts of this cluster; null until one has been seen. */
  estimatedMsLeft: z.number().int().nonnegative().nullable(),
  /** StartPhaseCompleted starttype: 0 initial start, 1 system restart, 2 node restart, 3 initial node restart. */
  startType: z.number().int().nullable(),
  /** The start was under way when ndbtop first polled: `startedAt` is that poll, the start began earlier. */
  underWayAtConnect: z.boolean().optional(),
});

/**
 * A data node's one restart state, from the management server's start phases and ndbinfo's `restart_info` together
 * (the engine's `restartState`): every panel, the CLI and /metrics show this, never their own reading of either source.
 */
export const RestartStateSchema = z.object({
  state: z.enum(['started', 'stopping', 'down', 'restarting']),
  /** The restart phase running (a `RESTART_PHASES` key); null unless restarting. From the management server it is a floor: "at least". */
  phase: z.string().nullable(),
  /** The state in the operator's words ("copying data from live nodes"). */
  words: z.string(),
  /** Which source said it: the management server's status and start phase, or ndbinfo's restart_info. */
  source: z.enum(['mgm', 'ndbinfo']),
  /** When that source began saying it (as ndbtop first saw it). */
  since: Millis,
  /** The start phase last completed as the management server reports it, while the node starts; else null. */
  startPhase: z.number().int().nullable(),
});

export const NodeViewSchema = z.object({
  nodeId: z.number().int().min(1).max(255),
  type: NodeTypeSchema,
  status: NodeStatusSchema,
  statusRaw: z.string(),
  startPhase: z.number().int(),
  nodeGroup: z.union([z.number().int(), z.literal('none')]).nullable(),
  version: z.string().nullable(),
  versionRaw: z.number().int(),
  mysqlVersion: z.string().nullable(),
  address: z.string().nullable(),
  connectCount: z.number().int().nullable(),
  dynamicId: z.number().int().nullable(),
  isSingleUser: z.boolean().nullable(),
  isMaster: z.boolean(),
  /** When the status last changed (as first seen by us, from an event or a poll). */
  statusSince: Millis,
  restart: RestartProgressSchema.nullable(),
  /** Data nodes: where the node stands, both sources joined; null for other node types, absent from older recordings. */
  restartState: RestartStateSchema.nullable().optional(),
  /** Data nodes: every other member of its node group is STARTED. null for other node types. */
  safeToStop: z.boolean().nullable(),
  memory: z.object({ data: MemoryUseSchema.nullable(), index: MemoryUseSchema.nullable() }),
  rates: NodeRatesSchema.nullable(),
  /**
   * Set while the node is not in contact (NO_CONTACT, or the management server lost or not answering): when it was
   * last seen (the last poll that had it in contact); its memory and rates are from then. With `statusBeforeWatch`
   * it was never seen in contact: then it is when ndbtop first polled.
   */
  lastSeenAt: Millis.nullable().optional(),
  /** The node already had this status when ndbtop first polled: `statusSince` is that poll, the status began earlier. */
  statusBeforeWatch: z.boolean().optional(),
  /** What the cluster's configuration says of the node: where it runs (also while it is down) and its memory sizes. */
  configured: z
    .object({ hostname: z.string(), dataMemoryBytes: z.number().nonnegative().nullable(), indexMemoryBytes: z.number().nonnegative().nullable() })
    .nullable()
    .optional(),
});

export const NodeGroupViewSchema = z.object({
  nodeGroup: z.number().int(),
  nodeIds: z.array(z.number().int()),
  live: z.number().int().nonnegative(),
  health: z.enum(['OK', 'DEGRADED', 'OFFLINE']),
});

export type NodeType = z.infer<typeof NodeTypeSchema>;
export type NodeStatus = z.infer<typeof NodeStatusSchema>;
export type Rates = z.infer<typeof RatesSchema>;
export type NodeRates = z.infer<typeof NodeRatesSchema>;
export type MemoryUse = z.infer<typeof MemoryUseSchema>;
export type RestartProgress = z.infer<typeof RestartProgressSchema>;
export type RestartState = z.infer<typeof RestartStateSchema>;
export type NodeView = z.infer<typeof NodeViewSchema>;
export type NodeGroupView = z.infer<typeof NodeGroupViewSchema>;
