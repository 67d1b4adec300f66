import { z } from 'zod';

/**
 * Backups as ndbtop has seen them (the cluster's BACKUP events, ndbinfo where present): the engine derives them once
 * and the Backups view, `ndbtop backup status`, `GET /api/backups`, `/metrics` and recordings show that one.
 */
export const BackupNodeProgressSchema = z.object({
  nodeId: z.number().int(),
  records: z.number().nonnegative(),
  bytes: z.number().nonnegative(),
});

export const RunningBackupSchema = z.object({
  backupId: z.number().int(),
  startedAt: z.number().int(),
  nodes: z.array(BackupNodeProgressSchema),
  /** Null until two readings give a rate. */
  bytesPerSec: z.number().nonnegative().nullable(),
  /** Milliseconds to the end at this rate for the data to back up; null while unknown. */
  etaMs: z.number().nonnegative().nullable(),
});

export const PastBackupSchema = z.object({
  backupId: z.number().int(),
  startedAt: z.number().int(),
  endedAt: z.number().int(),
  records: z.number().nonnegative(),
  bytes: z.number().nonnegative(),
  /** How it ended; completed unless the cluster said otherwise. */
  outcome: z.enum(['completed', 'aborted', 'failed']).optional(),
});

export const BackupStatusSchema = z.object({
  running: RunningBackupSchema.nullable(),
  /** The backups seen, oldest first. */
  last: z.array(PastBackupSchema),
});

export type BackupNodeProgress = z.infer<typeof BackupNodeProgressSchema>;
export type RunningBackup = z.infer<typeof RunningBackupSchema>;
export type PastBackup = z.infer<typeof PastBackupSchema>;
export type BackupStatus = z.infer<typeof BackupStatusSchema>;
