import type { ConfigParams } from '../../config/index.js';

/** The server's defaults (NoOfFragmentLogParts, NoOfFragmentLogFiles, FragmentLogFileSize, disk write speeds). */
const DEFAULTS = { parts: 4, files: 16, fileBytes: 16 * 1024 * 1024, minSpeed: 10 * 1024 * 1024, maxSpeed: 20 * 1024 * 1024 } as const;

/** Fill at which the log is overloaded: ops that need redo space are refused (error 410, "REDO log files overloaded"). */
export const REDO_OVERLOAD_FILL = 0.9;
/** Fill above which a checkpoint runs at twice the configured top speed, to free the log sooner (the model's "redo alert"). */
const ALERT_FILL = 0.25;
/** A checkpoint's fixed part (start, fragment bookkeeping, the final flush). */
const LCP_BASE_MS = 2000;
/**
 * The share of logged bytes the next checkpoint writes again: a load that changes the same rows many times between
 * checkpoints writes them once (the default); a bulk insert writes every new row (1).
 */
export const DEFAULT_REWRITE_SHARE = 0.25;

function num(params: ConfigParams | undefined, key: string, fallback: number): number {
  const v = Number(params?.[key]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

/**
 * One data node's redo log and its local checkpoints. Writes fill the log; each LCP, when complete, frees the log
 * written before it began. An LCP writes the rows changed since the previous one, so its length grows with the write
 * rate: a write rate the disk speed cannot match makes each checkpoint longer than the last and the log fills up to
 * overload. Sizes and speeds come from the node's configuration.
 */
export class RedoLog {
  readonly parts: number;
  /** NoOfFragmentLogFiles and FragmentLogFileSize: each part is that many files of that size. */
  readonly files: number;
  readonly fileBytes: number;
  readonly partBytes: number;
  private readonly minSpeed: number;
  /** MaxDiskWriteSpeed: a checkpoint's top speed, doubled while the log is past ALERT_FILL. */
  readonly maxSpeed: number;
  /** Bytes of the log in use (not yet freed by a checkpoint), over all parts. */
  used = 0;
  bytesWritten = 0;
  lcpBytesWritten = 0;
  lcpsCompleted = 0;
  /** The running LCP: the log in use when it began (freed when it ends) and the bytes it still has to write. */
  private lcp: { freeAtEnd: number; remaining: number } | null = null;
  /** Bytes logged since the running (or last) LCP began: what the next one writes again. */
  private loggedSinceLcp = 0;
  speed = 0;
  /**
   * Scenario knob: the bytes/s this node's disk takes, redo and checkpoint writes together (a failing or saturated
   * disk). Redo the disk cannot take waits in the redo buffer (`buffered`); checkpoints get what redo leaves.
   */
  diskBytesPerSec = Infinity;
  /** Redo written but not yet on disk: it waits in the redo buffer while the disk is slower than the writes. */
  buffered = 0;
  /** Redo bytes that reached the disk in the last `advance`: what ndbinfo's redo write speed counts. */
  lastDiskBytes = 0;

  constructor(params: ConfigParams | undefined) {
    this.parts = num(params, 'NoOfFragmentLogParts', DEFAULTS.parts);
    this.files = num(params, 'NoOfFragmentLogFiles', DEFAULTS.files);
    this.fileBytes = num(params, 'FragmentLogFileSize', DEFAULTS.fileBytes);
    this.partBytes = this.files * this.fileBytes;
    this.minSpeed = num(params, 'MinDiskWriteSpeed', DEFAULTS.minSpeed);
    this.maxSpeed = num(params, 'MaxDiskWriteSpeed', DEFAULTS.maxSpeed);
  }

  get total(): number {
    return this.parts * this.partBytes;
  }

  get fill(): number {
    return this.used / this.total;
  }

  /** One part's share of the node's redo: parts are filled round robin by fragment, so they differ a little. */
  partShare(part: number): number {
    return (1 + 0.04 * Math.sin(part * 2.1)) / this.parts;
  }

  /** Bytes in use in one log part. */
  partUsed(part: number): number {
    return Math.min(this.partBytes, this.used * this.partShare(part));
  }

  get overloaded(): boolean {
    return this.fill >= REDO_OVERLOAD_FILL;
  }

  get lcpRunning(): boolean {
    return this.lcp !== null;
  }

  /** The checkpoint speed the node aims at: the minimum when nothing is written, the top speed (doubled in alert) otherwise. */
  private targetSpeed(redoBytesPerSec: number): number {
    if (redoBytesPerSec <= 0 && this.fill < ALERT_FILL) return this.minSpeed;
    return this.fill >= ALERT_FILL ? this.alertSpeed : this.maxSpeed;
  }

  /** The fastest a checkpoint frees the log: a write rate above it (of new rows) fills the log, whatever its size. */
  get alertSpeed(): number {
    return this.maxSpeed * 2;
  }

  /**
   * `ms` of sim time at `redoBytesPerSec` of log writes, of which the next checkpoint writes `rewriteShare` again.
   * Returns the LCP bytes written in it. The fill moves by at most the bytes written over the log's size: it never
   * climbs faster than the write rate allows.
   */
  advance(ms: number, redoBytesPerSec: number, rewriteShare = DEFAULT_REWRITE_SHARE): number {
    const offered = (redoBytesPerSec * ms) / 1000 + this.buffered;
    const toDisk = Math.min(offered, (this.diskBytesPerSec * ms) / 1000);
    this.buffered = offered - toDisk;
    this.lastDiskBytes = toDisk;
    const logged = Math.min(toDisk, this.total - this.used);
    this.used += logged;
    this.bytesWritten += logged;
    this.loggedSinceLcp += logged;
    this.speed = Math.min(this.targetSpeed(redoBytesPerSec), Math.max(0, this.diskBytesPerSec - (toDisk * 1000) / ms));
    if (!this.lcp) {
      if (this.loggedSinceLcp <= 0) return 0;
      // A checkpoint starts once there is something to checkpoint; its fixed part costs as much time as writing.
      this.lcp = { freeAtEnd: this.used, remaining: (LCP_BASE_MS / 1000) * this.speed + this.loggedSinceLcp * rewriteShare };
      this.loggedSinceLcp = 0;
    }
    const written = Math.min(this.lcp.remaining, (this.speed * ms) / 1000);
    this.lcp.remaining -= written;
    this.lcpBytesWritten += written;
    if (this.lcp.remaining <= 0) {
      // The log written before this LCP began is no longer needed for recovery.
      this.used = Math.max(0, this.used - this.lcp.freeAtEnd);
      this.lcp = null;
      this.lcpsCompleted += 1;
    }
    return written;
  }

  /** A node restart ends with a local checkpoint of its own (restart_info's wait for LCP): the log it left is freed. */
  freeAfterRestart(): void {
    this.used = 0;
    this.buffered = 0;
    this.loggedSinceLcp = 0;
    this.lcp = null;
  }
}
