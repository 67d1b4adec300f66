import { z } from 'zod';
import { AlertKindSchema, AlertSchema } from './events.js';

/** The longest maintenance window one request may open: a week. */
export const MAX_MAINTENANCE_MS = 7 * 24 * 3600_000;

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
  start: z.number().int(),
  /** When it closes by itself (opened with a duration); null: until stopped. */
  until: z.number().int().nullable(),
  /** When it was stopped or ran out; null while open. */
  end: z.number().int().nullable(),
});

export const StartMaintenanceSchema = z.object({
  clusterId: z.string().optional(),
  reason: z.string().max(500).optional(),
  /** Without it: every alert kind. */
  silence: z.array(AlertKindSchema).min(1).max(50).optional(),
  durationMs: z.number().int().positive().max(MAX_MAINTENANCE_MS).optional(),
});

export const MaintenanceRefSchema = z.object({ clusterId: z.string().optional(), windowId: z.string() });

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
});

export type MaintenanceWindow = z.infer<typeof MaintenanceWindowSchema>;
export type AlertHistoryEntry = z.infer<typeof AlertHistoryEntrySchema>;
export type AlertHistory = z.infer<typeof AlertHistorySchema>;
