import { z } from 'zod';
import { ActionPreviewSchema, ActionResultSchema, OperatorActionSchema } from './actions.js';
import { ClusterCountersSchema } from './counters.js';
import { AlertSchema, EventViewSchema } from './events.js';
import { HistoryPointSchema, HistoryQuerySchema, HistorySeriesSchema, TimelineSchema } from './history.js';
import { AppInfoSchema, ProfileSqlSchema, ProfileTlsSchema, ProfileViewSchema, SaveProfileSchema, SettingsSchema } from './settings.js';
import { MarkPhaseSchema, RunRefSchema, RunReportQuerySchema, RunReportsSchema, RunSchema, StartRunSchema } from './runs.js';
import { ClusterSnapshotSchema, ClusterSummarySchema, SnapshotDeltaSchema } from './snapshot.js';
import { ClusterConfigViewSchema } from './config.js';
import { RollingPlanViewSchema, RollingRequestSchemas } from './rolling-restart.js';
import { AlertHistorySchema, ExtendMaintenanceSchema, MaintenanceRefSchema, MaintenanceWindowSchema, StartMaintenanceSchema } from './maintenance.js';
import { IncidentListSchema, IncidentQuerySchema, IncidentRefSchema, IncidentSchema, IncidentSummaryListSchema } from './incidents.js';
import { NdbinfoLinksQuerySchema, NdbinfoLinksSchema } from './ndbinfo.js';
import { BackupStatusSchema } from './backups.js';
import { ThreadPointQuerySchema, ThreadPointSchema, ThreadSeriesQuerySchema, ThreadSeriesSchema } from './threads.js';

const ClusterRef = z.object({ clusterId: z.string().optional() });

/**
 * Every request the UI can make, with what it sends and what it gets back. Electron IPC, the preload bridge,
 * the WebSocket server and the renderer all derive their types and their runtime checks from this one table.
 */
export const REQUESTS = {
  getAppInfo: { request: z.object({}), response: AppInfoSchema },
  listClusters: { request: z.object({}), response: z.array(ClusterSummarySchema) },
  /** `profileId`: a saved profile's, whose stored SQL password (if any) goes to its saved SQL nodes only. */
  addCluster: {
    request: z.object({ name: z.string().min(1).max(100), connectstring: z.string().min(1).max(2000), tls: ProfileTlsSchema.optional(), sql: ProfileSqlSchema.optional(), profileId: z.string().min(1).optional() }),
    response: ClusterSummarySchema,
  },
  removeCluster: { request: z.object({ clusterId: z.string() }), response: z.object({ removed: z.boolean() }) },
  getSnapshot: { request: ClusterRef, response: ClusterSnapshotSchema },
  /** The configuration as last read; null before the first read. A snapshot's configGeneration says when to ask again. */
  getClusterConfig: { request: ClusterRef, response: ClusterConfigViewSchema.nullable() },
  getCounters: { request: ClusterRef, response: ClusterCountersSchema },
  getHistory: { request: HistoryQuerySchema, response: HistorySeriesSchema },
  /** Every data node's threads over a window (the Threads view's heatmap); empty without an SQL source. */
  getThreadSeries: { request: ThreadSeriesQuerySchema, response: ThreadSeriesSchema },
  /** One heatmap cell's splits (its busiest second); null where the thread had no reading. */
  getThreadPoint: { request: ThreadPointQuerySchema, response: ThreadPointSchema.nullable() },
  /** The links between nodes as the SQL source last read them (`transporters`); null without one. Ask a few data nodes at a time. */
  getLinks: { request: NdbinfoLinksQuerySchema, response: NdbinfoLinksSchema.nullable() },
  getTimeline: { request: ClusterRef.extend({ fromMs: z.number().int().nonnegative().optional() }), response: TimelineSchema },
  getEvents: {
    request: ClusterRef.extend({ beforeSeq: z.number().int().optional(), limit: z.number().int().min(1).max(10_000).default(500) }),
    response: z.array(EventViewSchema),
  },
  acknowledgeAlert: { request: ClusterRef.extend({ alertId: z.string() }), response: z.object({ acknowledged: z.boolean() }) },
  previewAction: { request: ClusterRef.extend({ action: OperatorActionSchema }), response: ActionPreviewSchema },
  runAction: { request: ClusterRef.extend({ action: OperatorActionSchema }), response: ActionResultSchema },
  getSettings: { request: z.object({}), response: SettingsSchema },
  updateSettings: { request: SettingsSchema.partial(), response: SettingsSchema },
  listProfiles: { request: z.object({}), response: z.array(ProfileViewSchema) },
  saveProfile: { request: SaveProfileSchema, response: z.array(ProfileViewSchema) },
  deleteProfile: { request: z.object({ id: z.string() }), response: z.array(ProfileViewSchema) },
  exportHistory: {
    request: ClusterRef.extend({
      format: z.enum(['csv', 'json']),
      fromMs: z.number().int().nonnegative().optional(),
      toMs: z.number().int().nonnegative().optional(),
      /** The benchmark phase marks set on the chart: a CSV row carries the phase it belongs to. */
      marks: z.array(z.object({ at: z.number().int().nonnegative(), label: z.string().max(200) })).max(1000).optional(),
    }),
    response: z.object({ filename: z.string(), mime: z.string(), content: z.string() }),
  },
  startRun: { request: StartRunSchema, response: RunSchema },
  /** Without a runId: the cluster's running run. */
  markPhase: { request: MarkPhaseSchema, response: RunSchema },
  stopRun: { request: RunRefSchema, response: RunSchema },
  getRunReports: { request: RunReportQuerySchema, response: RunReportsSchema },
  /** The same reports as a file: Markdown, CSV or JSON (what `ndbtop report` prints). */
  exportRuns: {
    request: RunReportQuerySchema.extend({ format: z.enum(['md', 'csv', 'json']) }),
    response: z.object({ filename: z.string(), mime: z.string(), content: z.string() }),
  },
  startMaintenance: { request: StartMaintenanceSchema, response: MaintenanceWindowSchema },
  stopMaintenance: { request: MaintenanceRefSchema, response: MaintenanceWindowSchema },
  extendMaintenance: { request: ExtendMaintenanceSchema, response: MaintenanceWindowSchema },
  listMaintenance: { request: ClusterRef, response: z.array(MaintenanceWindowSchema) },
  /** Every alert of the session with raise and clear times, newest last (bounded). */
  getAlertHistory: { request: ClusterRef, response: AlertHistorySchema },
  /** Unplanned failures of data nodes, each explained with its evidence and its restart, newest first (bounded). */
  getIncidents: { request: IncidentQuerySchema, response: IncidentListSchema },
  /** The same incidents as summaries (what a list shows, no evidence): what a page keeps. */
  listIncidents: { request: IncidentQuerySchema, response: IncidentSummaryListSchema },
  /** One incident in full (evidence, the minute before, restart phases): a page asks when it opens one. */
  getIncident: { request: IncidentRefSchema, response: IncidentSchema.nullable() },
  /** Runs of a recording's text (a file the user picked), kept for comparison with this session's. */
  listImportedRuns: { request: z.object({}), response: z.array(RunSchema) },
  /** The rolling restart the engine conducts for the cluster (planned, running or over); null when none. */
  getRollingRestart: { request: ClusterRef, response: RollingPlanViewSchema.nullable() },
  /** Makes a plan from the cluster as it is now and shows it (nothing is sent); replaces a plan not started. */
  planRollingRestart: { request: RollingRequestSchemas.plan, response: RollingPlanViewSchema },
  startRollingRestart: { request: RollingRequestSchemas.ref, response: RollingPlanViewSchema },
  /** Halts now, or once the step whose restart went out is back (nothing more is sent). */
  haltRollingRestart: { request: RollingRequestSchemas.ref, response: RollingPlanViewSchema },
  /** Continues a halted plan at its step (`skip`: with the next step). */
  resumeRollingRestart: { request: RollingRequestSchemas.resume, response: RollingPlanViewSchema },
  abortRollingRestart: { request: RollingRequestSchemas.ref, response: RollingPlanViewSchema },
  /** The running backup (per node progress, rate, ETA) and the backups seen before it, oldest first. */
  getBackups: { request: ClusterRef, response: BackupStatusSchema },
} as const;

/** Everything the engine pushes without being asked, at most ~10 times a second, coalesced. */
export const PushMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('snapshot'), version: z.number().int().nonnegative(), snapshot: ClusterSnapshotSchema }),
  z.object({ type: z.literal('delta'), delta: SnapshotDeltaSchema }),
  z.object({ type: z.literal('events'), clusterId: z.string(), events: z.array(EventViewSchema) }),
  z.object({ type: z.literal('history'), clusterId: z.string(), points: z.array(HistoryPointSchema) }),
  z.object({ type: z.literal('alert'), clusterId: z.string(), alert: AlertSchema }),
  z.object({ type: z.literal('clusters'), clusters: z.array(ClusterSummarySchema) }),
]);

export type RequestName = keyof typeof REQUESTS;
export type RequestOf<K extends RequestName> = z.input<(typeof REQUESTS)[K]['request']>;
export type ParsedRequestOf<K extends RequestName> = z.output<(typeof REQUESTS)[K]['request']>;
export type ResponseOf<K extends RequestName> = z.output<(typeof REQUESTS)[K]['response']>;
export type PushMessage = z.infer<typeof PushMessageSchema>;
