import { z } from 'zod';

/**
 * An unplanned failure of one or more data nodes, explained: the engine derives it once (from the cluster's events,
 * the node statuses and the ndbinfo figures it already reads) and the Incidents view, `GET /api/incidents`,
 * `ndbtop incidents`, run reports and `/metrics` show that one derivation.
 */
export const INCIDENT_CAUSE_KINDS = [
  'heartbeat',
  'arbitration',
  'gcp-stop',
  'redo-full',
  'undo-full',
  'memory',
  'error',
  'operator',
  'unknown',
] as const;

export const IncidentCauseKindSchema = z.enum(INCIDENT_CAUSE_KINDS);

export const IncidentEvidenceSchema = z.object({
  /** Epoch ms the evidence was true (an event's time, a reading's time). */
  at: z.number().int(),
  source: z.enum(['event', 'status', 'ndbinfo']),
  text: z.string(),
});

export const IncidentCauseSchema = z.object({
  kind: IncidentCauseKindSchema,
  /** One sentence an operator reads first. */
  text: z.string(),
  evidence: z.array(IncidentEvidenceSchema),
});

/** One figure of the fallen node(s) in the minute before: its last value and its peak over that minute. */
export const IncidentFigureSchema = z.object({
  nodeId: z.number().int(),
  /** What it measures, with its unit in words ("redo log fill", "main thread CPU"). */
  name: z.string(),
  /** `/s`: events per second; `flag`: 1 when something held at the reading (the page says yes or no); `count`: in older recordings. */
  unit: z.enum(['%', 'B', 'B/s', '/s', 'flag', 'count']),
  last: z.number(),
  peak: z.number(),
  at: z.number().int(),
  source: z.enum(['event', 'status', 'ndbinfo']),
});

export const IncidentBeforeSchema = z.object({
  /** Start of the minute looked at (epoch ms). */
  from: z.number().int(),
  figures: z.array(IncidentFigureSchema),
  /** Heartbeat, arbitration and other cluster-log events of that minute, oldest first. */
  events: z.array(IncidentEvidenceSchema),
});

export const IncidentPhaseSchema = z.object({
  name: z.string(),
  secs: z.number().nonnegative().nullable(),
  /** The same phase in this node's earlier restarts ndbtop timed; null when none was. */
  usualSecs: z.number().nonnegative().nullable(),
});

export const IncidentRestartSchema = z.object({
  startedAt: z.number().int().nullable(),
  backAt: z.number().int().nullable(),
  totalSecs: z.number().nonnegative().nullable(),
  usualSecs: z.number().nonnegative().nullable(),
  phases: z.array(IncidentPhaseSchema),
});

export const IncidentSchema = z.object({
  id: z.string(),
  clusterId: z.string().optional(),
  nodeIds: z.array(z.number().int()),
  /** When the failure began as the sources date it (the first sign), epoch ms. */
  startedAt: z.number().int(),
  /** When ndbtop saw the node leave STARTED, epoch ms. */
  noticedAt: z.number().int(),
  /** Always false for an incident: a planned stop is not one. Kept so a consumer never has to guess. */
  planned: z.boolean(),
  /** True when the failure began before ndbtop was watching, so part of the story is missing. */
  beganBeforeWatching: z.boolean().optional(),
  cause: IncidentCauseSchema,
  /** A second cause the evidence also supports, listed with its own evidence. */
  otherCauses: z.array(IncidentCauseSchema).optional(),
  before: IncidentBeforeSchema,
  restart: IncidentRestartSchema,
});

export const IncidentListSchema = z.object({ incidents: z.array(IncidentSchema) });

/**
 * What a list of incidents shows (the Incidents view's rows, a node card's badge): an incident without its evidence,
 * the minute before and the restart's phases. A page holds these and asks for one incident's detail when it is
 * opened: every detail of the engine's up to 200 incidents, asked again at each node status change, was the page's
 * heap growing through a soak.
 */
export const IncidentSummarySchema = IncidentSchema.omit({ otherCauses: true, before: true }).extend({
  cause: IncidentCauseSchema.omit({ evidence: true }),
  restart: IncidentRestartSchema.omit({ phases: true }),
});

export const IncidentSummaryListSchema = z.object({ incidents: z.array(IncidentSummarySchema) });

/** `getIncidents`: one cluster's (the first without `clusterId`), newest first; `sinceMs`: those noticed from then on. */
export const IncidentQuerySchema = z.object({ clusterId: z.string().optional(), sinceMs: z.number().int().nonnegative().optional() });

/** `getIncident`: one incident in full, by its id; null when the engine no longer holds it (its list keeps the last 200). */
export const IncidentRefSchema = z.object({ clusterId: z.string().optional(), id: z.string().min(1).max(200) });

export type IncidentCauseKind = z.infer<typeof IncidentCauseKindSchema>;
export type IncidentEvidence = z.infer<typeof IncidentEvidenceSchema>;
export type IncidentCause = z.infer<typeof IncidentCauseSchema>;
export type IncidentFigure = z.infer<typeof IncidentFigureSchema>;
export type Incident = z.infer<typeof IncidentSchema>;
export type IncidentList = z.infer<typeof IncidentListSchema>;
export type IncidentRestart = z.infer<typeof IncidentRestartSchema>;
export type IncidentQuery = z.infer<typeof IncidentQuerySchema>;
export type IncidentSummary = z.infer<typeof IncidentSummarySchema>;
export type IncidentSummaryList = z.infer<typeof IncidentSummaryListSchema>;
export type IncidentRef = z.infer<typeof IncidentRefSchema>;
