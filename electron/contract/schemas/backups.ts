import { z } from 'zod';

/**
 * Backups as ndbtop has seen them (the cluster's BACKUP events, ndbinfo where present): the engine derives them once
 * and the Backups view, `ndbtop backup status`, `GET /api/backups`, `/metrics` and recordings show that one.
 */
export const BackupNodeProgressSchema = z.object({
  nodeId: z.number().int(),
  records: z.number().nonnegative(),
  bytes: z.number().nonnegative(),
  /** The data this node backs up: its DataMemory in use ÷ NoOfReplicas (its primary fragments); null while unknown. */
  toBackupBytes: z.number().nonnegative().nullable().optional(),
  /** When the node's figures were read (its last BackupStatus). */
  at: z.number().int().optional(),
});

export const RunningBackupSchema = z.object({
  backupId: z.number().int(),
  startedAt: z.number().int(),
  nodes: z.array(BackupNodeProgressSchema),
  /** Null until two readings give a rate. */
  bytesPerSec: z.number().nonnegative().nullable(),
  /** Milliseconds to the end at this rate for the data to back up; null while unknown. */
  etaMs: z.number().nonnegative().nullable(),
  /**
   * Where the end may fall, in ms from `at`: a backup writes the rows, not the pages' free space, so
   * anything from 75 % of the data to back up (from) to all of it (to, the etaMs), each node at its own rate; the
   * backup ends with its slowest node. Null with etaMs.
   */
  etaRangeMs: z.object({ fromMs: z.number().nonnegative(), toMs: z.number().nonnegative() }).nullable().optional(),
  /** Σ of the nodes' toBackupBytes, null while a node's is unknown. */
  toBackupBytes: z.number().nonnegative().nullable().optional(),
  /** The time etaMs and etaRangeMs count from (the engine's latest input). */
  at: z.number().int().optional(),
  /** The node that coordinates it (the backup events' starting_node). */
  coordinatorNodeId: z.number().int().optional(),
});

export const PastBackupSchema = z.object({
  backupId: z.number().int(),
  startedAt: z.number().int(),
  endedAt: z.number().int(),
  records: z.number().nonnegative(),
  bytes: z.number().nonnegative(),
  /** How it ended; completed unless the cluster said otherwise. */
  outcome: z.enum(['completed', 'aborted', 'failed']).optional(),
  /** The cluster's error code when it did not complete. */
  error: z.number().int().optional(),
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
