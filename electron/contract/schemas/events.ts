import { z } from 'zod';
import { ALERT_KINDS, SEVERITIES } from '../page-safe/vocabulary.js';

export const SeveritySchema = z.enum(SEVERITIES);

/** One cluster event as the UI lists it; `text` is a human sentence made by the engine from the fields. */
export const EventViewSchema = z.object({
  /** Monotonic per cluster, so the UI can de-duplicate and page. */
  seq: z.number().int().nonnegative(),
  at: z.number().int().nonnegative(),
  typeId: z.number().int(),
  name: z.string(),
  category: z.string().nullable(),
  severity: SeveritySchema.nullable(),
  sourceNodeId: z.number().int(),
  /** The node the event is about when that is not the source (failed_node, node, dest_node …). */
  subjectNodeId: z.number().int().nullable(),
  text: z.string(),
  fields: z.record(z.string(), z.number()),
  /** The alert this event raised: its severity is then the alert's, so the log and the alert strip agree. */
  alertId: z.string().optional(),
});

export const AlertKindSchema = z.enum(ALERT_KINDS);

export const AlertSchema = z.object({
  id: z.string(),
  kind: AlertKindSchema,
  severity: z.enum(['warning', 'critical']),
  at: z.number().int().nonnegative(),
  nodeId: z.number().int().nullable(),
  message: z.string(),
  acknowledged: z.boolean(),
  /** The condition is over (node back, memory down); kept until acknowledged so nothing flashes by unseen. */
  resolvedAt: z.number().int().nonnegative().nullable(),
  /**
   * An alert about the cluster as a whole (nodeId null), raised once when many data nodes reach a memory mark
   * together (`alerts/memory-spread.ts`): the data nodes at or held at the mark now, of how many report memory.
   */
  clusterWide: z.object({ nodeIds: z.array(z.number().int()), of: z.number().int().nonnegative() }).optional(),
  /**
   * A level alert's figures (redo, undo, memory): what it is about, its mark, the highest figure while it was on and
   * the figure now, percent; its message says them (`page-safe/level-words.ts`), and a folded row combines them.
   */
  level: z
    .object({ subject: z.string(), unit: z.string(), mark: z.number(), peak: z.number(), now: z.number() })
    .optional(),
  /** The incident a node-down alert is about (`getIncidents`, the Incidents view). */
  incidentId: z.string().optional(),
});

export type Severity = z.infer<typeof SeveritySchema>;
export type EventView = z.infer<typeof EventViewSchema>;
export type AlertKind = z.infer<typeof AlertKindSchema>;
export type Alert = z.infer<typeof AlertSchema>;
