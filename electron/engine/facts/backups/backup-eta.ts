/** One data node's figures in a running backup (its BackupStatus), and where its rate is measured from. */
export interface NodeProgress {
  records: number;
  bytes: number;
  at: number;
  /** The first point of its rate: the backup's start (0 bytes) when seen, else its first report. */
  fromAt: number;
  fromBytes: number;
}

/** What the ETA needs beside the events: each data node's share of the data to back up. */
export type ToBackup = (nodeId: number) => number | null;

/**
 * A backup writes the rows of a node's primary fragments, not the pages' free space and headers: between this share
 * of its DataMemory in use ÷ NoOfReplicas and all of it. The ETA range spans the two.
 */
export const ROWS_SHARE_LOW = 0.75;

export interface BackupEta {
  /** Σ of the nodes' rates; null until a node has two points. */
  bytesPerSec: number | null;
  /** ms from `now`; null while a node's rate or data to back up is unknown. */
  range: { fromMs: number; toMs: number } | null;
  toBackupBytes: number | null;
}

/**
 * Each data node writes its own share at its own disk's pace, so each node's end is its remaining data over its
 * rate, and the backup ends with the last of them. A node's rate is its bytes since the backup started (or since
 * its first report) over the time between: disks write a backup at a steady configured speed.
 */
export function backupEta(nodes: ReadonlyMap<number, NodeProgress>, toBackup: ToBackup, now: number): BackupEta {
  let bytesPerSec: number | null = null;
  let fromMs = 0;
  let toMs = 0;
  let known = nodes.size > 0;
  let toBackupBytes: number | null = nodes.size > 0 ? 0 : null;
  for (const [id, p] of nodes) {
    const target = toBackup(id);
    if (target === null || toBackupBytes === null) toBackupBytes = null;
    else toBackupBytes += target;
    const rate = p.at > p.fromAt ? ((p.bytes - p.fromBytes) * 1000) / (p.at - p.fromAt) : null;
    if (rate !== null) bytesPerSec = (bytesPerSec ?? 0) + rate;
    if (rate === null || rate <= 0 || target === null) {
      known = false;
      continue;
    }
    const since = now - p.at;
    fromMs = Math.max(fromMs, ((target * ROWS_SHARE_LOW - p.bytes) * 1000) / rate - since);
    toMs = Math.max(toMs, ((target - p.bytes) * 1000) / rate - since);
  }
  return { bytesPerSec, range: known ? { fromMs: Math.max(0, fromMs), toMs: Math.max(0, toMs) } : null, toBackupBytes };
}
