import { z } from 'zod';
import { AlertKindSchema, AlertSchema } from './events.js';
import { MAX_MAINTENANCE_MS, MAX_MAINTENANCE_TEXT } from '../page-safe/maintenance-bounds.js';
import { hasControl } from '../page-safe/outside-text.js';

export { DEFAULT_MAINTENANCE_MS, MAX_MAINTENANCE_MS, MAX_MAINTENANCE_TEXT, MAX_OPEN_MAINTENANCE_WINDOWS } from '../page-safe/maintenance-bounds.js';

const lengthBound = { message: `a maintenance window lasts at most ${MAX_MAINTENANCE_TEXT}` };
/**
 * Who opened, extended or closed a window, as its client said (a name; no control characters, bidi controls
 * included: 'silenced by' must read as the characters it is made of).
 */
const By = z.string().trim().min(1).max(100).refine((s) => !hasControl(s), { message: 'a name without control characters' });

/**
 * A maintenance window: a stretch of time, opened and closed from the UI, the CLI or HTTP like a run, in which the
 * chosen alert kinds are silenced (still kept in the alert history, marked, but raise no banner or notification)
 * and the charts are marked. Engine state: recorded and replayed like run marks.
 */
export const MaintenanceWindowSchema = z.object({
  id: z.string(),
  reason: z.string(),
  /** The alert kinds it silences; every kind when it was opened without a choice. */
  silence: z.array(AlertKindSchema),
  /** Whether critical alerts of those kinds are silenced too: only when its opener said so. */
  silenceCritical: z.boolean(),
  /** Who opened it, as its client said ("unnamed" when it did not). */
  openedBy: z.string(),
  start: z.number().int(),
  /** When it closes by itself; null only in recordings made before every window had an end. */
  until: z.number().int().nullable(),
  /** When it was stopped or ran out; null while open. */
  end: z.number().int().nullable(),
});

export const StartMaintenanceSchema = z.object({
  clusterId: z.string().optional(),
  reason: z.string().max(500).optional(),
  /** Without it: every alert kind (their critical alerts only with `silenceCritical`). */
  silence: z.array(AlertKindSchema).min(1).max(50).optional(),
  /** Without it: an hour. */
  durationMs: z.number().int().positive().max(MAX_MAINTENANCE_MS, lengthBound).optional(),
  /** Silence critical alerts of the chosen kinds too (node down, node group offline …); never without it. */
  silenceCritical: z.boolean().optional(),
  by: By.optional(),
});

export const MaintenanceRefSchema = z.object({ clusterId: z.string().optional(), windowId: z.string(), by: By.optional() });

/** Pushes a window's end `durationMs` further (its whole length stays within MAX_MAINTENANCE_MS). */
export const ExtendMaintenanceSchema = MaintenanceRefSchema.extend({ durationMs: z.number().int().positive().max(MAX_MAINTENANCE_MS, lengthBound) });

/** What happened to a window, for the alert history: who did it (null when it ran out) and its end since. */
export const MaintenanceEventSchema = z.object({
  windowId: z.string(),
  what: z.enum(['opened', 'extended', 'closed', 'expired']),
  at: z.number().int(),
  by: z.string().nullable(),
  reason: z.string(),
  until: z.number().int().nullable(),
  silenceCritical: z.boolean(),
});

/** One alert from raise to clear, with how long it lasted; kept for the session (the newest, bounded). */
export const AlertHistoryEntrySchema = AlertSchema.pick({ id: true, kind: true, severity: true, nodeId: true, message: true }).extend({
  raisedAt: z.number().int().nonnegative(),
  /** null while it is still on. */
  clearedAt: z.number().int().nonnegative().nullable(),
  /** How long it was on (null while on); an alert that came back during a run sums its times on. */
  durationMs: z.number().int().nonnegative().nullable(),
  /** The maintenance window that silenced it, if one did. */
  silencedBy: z.string().nullable(),
});

export const AlertHistorySchema = z.object({
  entries: z.array(AlertHistoryEntrySchema),
  /** Older entries dropped to keep the history bounded. */
  dropped: z.number().int().nonnegative(),
  /** Every maintenance window opened, extended, closed or expired, oldest first (the newest, bounded). */
  maintenance: z.array(MaintenanceEventSchema),
});

export type MaintenanceWindow = z.infer<typeof MaintenanceWindowSchema>;
export type AlertHistoryEntry = z.infer<typeof AlertHistoryEntrySchema>;
export type AlertHistory = z.infer<typeof AlertHistorySchema>;
export type MaintenanceEvent = z.infer<typeof MaintenanceEventSchema>;
