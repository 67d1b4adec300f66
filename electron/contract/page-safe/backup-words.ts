import type { PastBackup, RunningBackup } from '../schemas/backups.js';
import type { BackupView } from '../schemas/snapshot.js';
import { formatDuration } from './format-duration.js';

/** 950 B, 12.3 KiB, 4.56 GiB: sizes the same on the page and in the terminal. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u += 1;
  }
  return `${v >= 100 || u === 0 ? v.toFixed(0) : v.toFixed(1)} ${units[u]}`;
}

/** 10,977,646: counts grouped the same on the page and in the terminal (en-US whatever the locale, as dates are ISO-like). */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** The header's backup line: "backup 3 running · 614 MiB, 4,800,000 records", and the error if any. */
export function backupHeadline(b: BackupView): string {
  const figures = b.status === 'running' || b.status === 'completed' ? ` · ${formatBytes(b.bytes)}, ${formatCount(b.records)} records` : '';
  return `backup ${b.backupId} ${b.status}${figures}${b.error ? ` · ${b.error}` : ''}`;
}

/** "ends in 12 s – 20 s", or why no figure is given yet. */
export function backupEtaWords(run: RunningBackup): string {
  const range = run.etaRangeMs;
  if (range) return range.toMs - range.fromMs < 1000 ? `ends in about ${formatDuration(range.toMs)}` : `ends in ${formatDuration(range.fromMs)} – ${formatDuration(range.toMs)}`;
  if (run.bytesPerSec === null) return 'end not known yet: a second progress report gives the rate';
  return 'end not known: a data node\'s DataMemory in use or NoOfReplicas is not read yet';
}

/** A data node's share written, 0–100, null while its data to back up is unknown. */
export function nodeBackupPercent(n: { bytes: number; toBackupBytes?: number | null | undefined }): number | null {
  if (!n.toBackupBytes) return null;
  return Math.min(100, (n.bytes * 100) / n.toBackupBytes);
}

/** "backup 3  completed  took 15 s  614 MiB  4,800,000 records  2026-12-07T04:31:02Z". */
export function pastBackupLine(b: PastBackup): string {
  const error = b.error !== undefined ? ` (error ${b.error})` : '';
  return `backup ${b.backupId}  ${b.outcome ?? 'completed'}${error}  took ${formatDuration(b.endedAt - b.startedAt)}  ${formatBytes(b.bytes)}  ${formatCount(b.records)} records  ${new Date(b.startedAt).toISOString()}`;
}
