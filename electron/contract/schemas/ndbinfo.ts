import { z } from 'zod';
import { FillTrendSchema } from './fill-trend.js';

/**
 * What an SQL node's ndbinfo tells about the data nodes, as the engine derived it. Every figure group carries the
 * time it was observed (`at`, the SQL node's answer) so its age is known, and `stale: true` once the SQL source that
 * gave it is lost (the last values stay, greyed). All of it is optional in the snapshot: pages and recordings made
 * before ndbinfo have none.
 */

/**
 * One block thread's last second as every push carries it: its busy share only. The splits (exec, send, spin,
 * buffer full, sleeping; OS user, system, idle) stay in the engine's thread series and are asked for per cell
 * (`getThreadPoint`): at 144 data nodes × 20 threads they made each second's push ~600 KB that nothing on the page
 * read, and parsing it was most of the Threads view's time per update.
 */
export const NdbinfoThreadSchema = z.object({
  thrNo: z.number().int().nonnegative(),
  /** `threads.thread_name` (main, rep, ldm, query, tc, recv, send …); null without a `threads` table. */
  name: z.string().nullable(),
  /** exec + send + spin + buffer full, percent: the share of the second the thread did not sleep. */
  busy: z.number(),
});

export const NdbinfoThreadsSchema = z.object({
  at: z.number().int(),
  /** By thread number; the shape a per-node row of a threads heatmap takes at one moment. */
  threads: z.array(NdbinfoThreadSchema),
  /** The busiest thread and its kind (its name), null without threads. */
  hottest: z.object({ thrNo: z.number().int(), name: z.string().nullable(), busy: z.number() }).nullable(),
});

/**
 * A log's fill (`logspaces`, bytes): the worst part, since one full log part stops the writes that go to it however
 * empty the others are.
 */
export const NdbinfoLogFillSchema = z.object({
  at: z.number().int(),
  /** The worst part's bytes. */
  used: z.number().nonnegative(),
  total: z.number().nonnegative(),
  /** used ÷ total × 100 of the worst part, null when its total is 0. */
  percent: z.number().nullable(),
  /** Which part that is (`log_id`, `log_part`), and how many parts the node has. */
  logId: z.number().int(),
  logPart: z.number().int(),
  parts: z.number().int().nonnegative(),
  /** The worst part's trend over the last readings; null until there are enough (absent from older recordings). */
  trend: FillTrendSchema.nullable().optional(),
});

/** Send buffers of all the node's transporters (`transporter_details`, 8.3+): bytes. */
export const NdbinfoSendBufferSchema = z.object({
  at: z.number().int(),
  used: z.number().nonnegative(),
  /** What the transporters have allocated; the configured ceiling is not in ndbinfo. */
  allocated: z.number().nonnegative(),
  percent: z.number().nullable(),
  /** The trend of `percent`; null until there are enough readings (absent from older recordings). */
  trend: FillTrendSchema.nullable().optional(),
});

/**
 * The data node's host CPUs (`cpudata`, 8.0.23+, Linux only), beside its threads' share: a host busy with other
 * work shows here and not in the threads. Percent of the online CPUs' time (shares of each CPU's total: the unit of
 * the table's times is not documented).
 */
export const NdbinfoHostCpuSchema = z.object({
  at: z.number().int(),
  /** CPUs online, of `cpus`. */
  online: z.number().int().nonnegative(),
  cpus: z.number().int().nonnegative(),
  /** Userspace + system + interrupt + VM time over the online CPUs; null without any time counted. */
  busy: z.number().nullable(),
  user: z.number().nullable(),
  system: z.number().nullable(),
});

/** `disk_write_speed_aggregate_node`: bytes per second over the last second, and slowdowns per second. */
export const NdbinfoDiskWriteSchema = z.object({
  at: z.number().int(),
  redoBytesPerSec: z.number(),
  lcpBytesPerSec: z.number(),
  targetBytesPerSec: z.number(),
  /** Counts since the node started (Prometheus counters read them). */
  slowdownsIoLag: z.number(),
  slowdownsHighCpu: z.number(),
  /** Slowdowns due to I/O lag per second since the previous reading; null at the first and after a restart. */
  ioLagPerSec: z.number().nullable(),
});

/** `diskpagebuffer` over the node's PGMAN instances: page requests served from the buffer against those that waited for I/O. */
export const NdbinfoDiskPageBufferSchema = z.object({
  at: z.number().int(),
  /** direct ÷ (direct + wait_io) since the previous reading, 0–1; null without requests in it. */
  hitRatio: z.number().nullable(),
  /** The same since the node started. */
  hitRatioSinceStart: z.number().nullable(),
  /** Page requests that waited for I/O, per second. */
  waitIoPerSec: z.number().nullable(),
});

/** The node's most recent restart as DBDIH times it (`restart_info`): whole seconds per phase. */
export const NdbinfoRestartSchema = z.object({
  at: z.number().int(),
  status: z.string(),
  phases: z.record(z.string(), z.number()),
  totalSecs: z.number(),
  /** `node_restart_status_int` by its enum name (which phase runs now); absent from older recordings. */
  statusName: z.string().nullable().optional(),
  /** The text column says a restart is under way; absent from older recordings. */
  inProgress: z.boolean().optional(),
  /** When ndbtop first read this status of the restart (`at` is the latest reading); absent from older recordings. */
  since: z.number().int().optional(),
});

export const NdbinfoNodeSchema = z.object({
  nodeId: z.number().int(),
  /** True once the SQL source is lost: the figures are the last seen. */
  stale: z.boolean(),
  threads: NdbinfoThreadsSchema.nullable(),
  redo: NdbinfoLogFillSchema.nullable(),
  undo: NdbinfoLogFillSchema.nullable(),
  sendBuffer: NdbinfoSendBufferSchema.nullable(),
  diskWrite: NdbinfoDiskWriteSchema.nullable(),
  /** Absent in recordings made before it was shown. */
  diskPageBuffer: NdbinfoDiskPageBufferSchema.nullable().optional(),
  restart: NdbinfoRestartSchema.nullable(),
  /** Absent where the SQL node has no `cpudata` and in older recordings. */
  hostCpu: NdbinfoHostCpuSchema.nullable().optional(),
  /** The completed restart before `restart`, kept when a new one began: the baseline of its phase ETA. */
  previousRestart: NdbinfoRestartSchema.nullable().optional(),
});

/** One direction of a link between two nodes (`transporters`), as the data node `nodeId` counts it. */
export const NdbinfoLinkSchema = z.object({
  nodeId: z.number().int(),
  remoteNodeId: z.number().int(),
  status: z.string(),
  /** null at the first reading and after a restart reset the counters. */
  sentPerSec: z.number().nullable(),
  receivedPerSec: z.number().nullable(),
  overloaded: z.boolean(),
  slowdown: z.boolean(),
  /** Since the data node started: Prometheus counters read these. */
  bytesSent: z.number(),
  bytesReceived: z.number(),
  overloadCount: z.number(),
  slowdownCount: z.number(),
});

export const NdbinfoLinksSchema = z.object({ at: z.number().int(), stale: z.boolean(), links: z.array(NdbinfoLinkSchema) });

/**
 * What the snapshot and its pushes say of the links: when they were read and how many are in trouble. The links
 * themselves (one per direction of every node pair: ~21,900 at 144 data nodes, megabytes) travel only through
 * `getLinks`, which the view showing them asks for when `at` moves.
 */
export const NdbinfoLinksSummarySchema = z.object({
  at: z.number().int(),
  stale: z.boolean(),
  count: z.number().int().nonnegative(),
  overloaded: z.number().int().nonnegative(),
  /** In slowdown and not overloaded. */
  slowdown: z.number().int().nonnegative(),
});

/** `getLinks`: the links data nodes `nodeIds` count (all of them without it), a few nodes an answer. */
export const NdbinfoLinksQuerySchema = z.object({
  clusterId: z.string().optional(),
  nodeIds: z.array(z.number().int().nonnegative()).max(255).optional(),
});

/**
 * A figure that needs a table or columns not every release has: whether this SQL node gives it, and if not, why
 * (the table it needs, the release the reference dates it to, and the release this SQL node runs).
 */
export const NdbinfoFeatureSchema = z.object({
  key: z.enum(['host-cpu', 'send-buffers']),
  /** What the views call it: "host CPU", "send buffers". */
  label: z.string(),
  /** `ndbinfo.cpudata`: where it comes from. */
  source: z.string(),
  available: z.boolean(),
  /** The sentence the views show when it is not available; null when it is. */
  why: z.string().nullable(),
});

/**
 * The SQL source's link: which SQL node, and why none. Never carries the password. `failing`: connected, but its
 * readings fail (`lastError` says how).
 */
export const NdbinfoSourceViewSchema = z.object({
  status: z.enum(['connecting', 'up', 'failing', 'lost', 'closed']),
  since: z.number().int(),
  sqlNode: z.string().nullable(),
  serverVersion: z.string().nullable(),
  tls: z.boolean(),
  /** Wanted tables this SQL node lacks. */
  missing: z.array(z.string()),
  /** Its NDB release as its version string tells it (`8.4.3`), null when it does not; absent from older recordings. */
  ndbVersion: z.string().nullable().optional(),
  /** The figures that depend on the release, available or not and why; absent from older recordings. */
  features: z.array(NdbinfoFeatureSchema).optional(),
  failovers: z.number().int().nonnegative(),
  lastError: z.string().nullable(),
});

export const NdbinfoReadingLoadSchema = z.object({
  intervalMs: z.number(),
  lastMs: z.number().nullable(),
  meanMs: z.number().nullable(),
  paused: z.boolean(),
});

/** What watching costs the SQL node: the share of wall time spent in queries, and what the budget did about it. */
export const NdbinfoSelfLoadSchema = z.object({
  at: z.number().int(),
  share: z.number(),
  load: z.number(),
  stretch: z.number(),
  shedding: z.boolean(),
  queries: z.number().int().nonnegative(),
  readings: z.record(z.string(), NdbinfoReadingLoadSchema),
});

export const NdbinfoViewSchema = z.object({
  source: NdbinfoSourceViewSchema,
  selfLoad: NdbinfoSelfLoadSchema.nullable(),
  links: NdbinfoLinksSummarySchema.nullable(),
});

export type NdbinfoThread = z.infer<typeof NdbinfoThreadSchema>;
export type NdbinfoThreads = z.infer<typeof NdbinfoThreadsSchema>;
export type NdbinfoLogFill = z.infer<typeof NdbinfoLogFillSchema>;
export type NdbinfoSendBuffer = z.infer<typeof NdbinfoSendBufferSchema>;
export type NdbinfoHostCpu = z.infer<typeof NdbinfoHostCpuSchema>;
export type NdbinfoFeature = z.infer<typeof NdbinfoFeatureSchema>;
export type NdbinfoDiskWrite = z.infer<typeof NdbinfoDiskWriteSchema>;
export type NdbinfoDiskPageBuffer = z.infer<typeof NdbinfoDiskPageBufferSchema>;
export type NdbinfoRestart = z.infer<typeof NdbinfoRestartSchema>;
export type NdbinfoNode = z.infer<typeof NdbinfoNodeSchema>;
export type NdbinfoLink = z.infer<typeof NdbinfoLinkSchema>;
export type NdbinfoLinks = z.infer<typeof NdbinfoLinksSchema>;
export type NdbinfoLinksSummary = z.infer<typeof NdbinfoLinksSummarySchema>;
export type NdbinfoSourceView = z.infer<typeof NdbinfoSourceViewSchema>;
export type NdbinfoSelfLoad = z.infer<typeof NdbinfoSelfLoadSchema>;
export type NdbinfoView = z.infer<typeof NdbinfoViewSchema>;
