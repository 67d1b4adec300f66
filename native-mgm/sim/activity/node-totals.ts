import { ABORT_SHARE, ATTRINFO_PER_OP, SIMPLE_READ_SHARE } from '../workload/statistics.js';
import type { ThreadDemand } from './cpu-model.js';
import type { Link } from './link-traffic.js';
import type { NodeLoad } from './node-load.js';

/** Share of operations that touch a disk-data column through the page cache, and of those that miss it (the
 * other shares are the statistics reports', so counters and reports describe the same operations). */
const DISK_PAGE_SHARE = 0.02;
const DISK_PAGE_MISS = 0.01;
/** Share of the operations a TC coordinates whose primary replica is on its own node. */
const LOCAL_SHARE = 0.5;
/** Seconds of history kept for the 10 s and 60 s write speed figures. */
const HISTORY_SECONDS = 60;

export interface StepInput {
  load: NodeLoad;
  links: Link[];
  demands: ThreadDemand[];
  redoBytes: number;
  lcpBytes: number;
  /** A running backup's writes: they count in the backup_lcp write speed, not in the checkpoint's disk pages. */
  backupBytes?: number;
  redoAlert: boolean;
  idle: boolean;
}

export interface ThreadTotals {
  execUs: number;
  sendUs: number;
  elapsedUs: number;
}

export interface SpeedFigures {
  lastSec: number;
  last10Sec: number;
  stdDev10Sec: number;
  last60Sec: number;
  stdDev60Sec: number;
}

/** Mean and standard deviation of the per-second figures of the last `n` whole seconds. */
function speeds(perSecond: number[], n: number): { mean: number; stdDev: number } {
  const xs = perSecond.slice(-n);
  if (xs.length === 0) return { mean: 0, stdDev: 0 };
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  return { mean, stdDev: Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length) };
}

/** The cumulative figures of one data node process since it started: what ndbinfo's counters and totals count. */
export class NodeTotals {
  readonly ops = { trans: 0, commits: 0, aborts: 0, reads: 0, simpleReads: 0, writes: 0, attrinfo: 0, scans: 0, rangeScans: 0, lqhOps: 0, localReads: 0, localWrites: 0 };
  readonly disk = { pagesRead: 0, pagesWritten: 0, pagesWrittenLcp: 0, logWaits: 0, directReturn: 0, waitQueue: 0, waitIo: 0 };
  readonly sent = new Map<number, number>();
  readonly received = new Map<number, number>();
  readonly maxSendBuffer = new Map<number, number>();
  /** Per remote node: how often its link became overloaded / slowed down, and whether it is now. */
  readonly overloadCount = new Map<number, number>();
  readonly slowdownCount = new Map<number, number>();
  /** Each link's overload and slowdown as of the last step integrated: the state its counts were kept by. */
  readonly pressed = new Map<number, { overloaded: boolean; slowdown: boolean }>();
  readonly threads: ThreadTotals[];
  slowdownsIoLag = 0;
  slowdownsHighCpu = 0;
  speedSetToMin = 0;
  /** Per whole second (sim time / 1000): redo and LCP bytes written in it. */
  private readonly perSecond = new Map<number, { redo: number; lcp: number }>();

  constructor(
    readonly startedAt: number,
    threadCount: number,
  ) {
    this.threads = Array.from({ length: threadCount }, () => ({ execUs: 0, sendUs: 0, elapsedUs: 0 }));
  }

  add(at: number, dtMs: number, step: StepInput): void {
    const s = dtMs / 1000;
    const { load } = step;
    const o = this.ops;
    const writes = load.tcOps - load.reads;
    o.trans += load.trans * s;
    o.aborts += load.trans * s * ABORT_SHARE;
    o.commits += load.trans * s * (1 - ABORT_SHARE);
    o.reads += load.reads * s;
    o.simpleReads += load.reads * s * SIMPLE_READ_SHARE;
    o.writes += writes * s;
    o.attrinfo += load.tcOps * s * ATTRINFO_PER_OP;
    o.scans += load.scans * s;
    o.rangeScans += load.rangeScans * s;
    o.lqhOps += (load.reads + load.replicaWrites) * s;
    o.localReads += load.reads * s * LOCAL_SHARE;
    o.localWrites += writes * s * LOCAL_SHARE;
    const pageRequests = (load.reads + load.replicaWrites + load.rangeScans * 20) * s * DISK_PAGE_SHARE;
    this.disk.waitIo += pageRequests * DISK_PAGE_MISS;
    this.disk.pagesRead += pageRequests * DISK_PAGE_MISS;
    this.disk.waitQueue += pageRequests * DISK_PAGE_MISS * 0.1;
    this.disk.directReturn += pageRequests * (1 - DISK_PAGE_MISS * 1.1);
    this.disk.pagesWritten += load.replicaWrites * s * DISK_PAGE_SHARE * 0.05;
    this.disk.pagesWrittenLcp += (step.lcpBytes / 32768) * DISK_PAGE_SHARE;
    for (const l of step.links) {
      this.sent.set(l.remoteId, (this.sent.get(l.remoteId) ?? 0) + l.outPerSec * s);
      this.received.set(l.remoteId, (this.received.get(l.remoteId) ?? 0) + l.inPerSec * s);
      this.maxSendBuffer.set(l.remoteId, Math.max(this.maxSendBuffer.get(l.remoteId) ?? 0, l.sendBuffer.used));
      // Kept in place: a new object per link and step was most of a 144-node cluster's garbage.
      let pressed = this.pressed.get(l.remoteId);
      if (!pressed) this.pressed.set(l.remoteId, (pressed = { overloaded: false, slowdown: false }));
      if (l.sendBuffer.overloaded && !pressed.overloaded) this.overloadCount.set(l.remoteId, (this.overloadCount.get(l.remoteId) ?? 0) + 1);
      if (l.sendBuffer.slowdown && !pressed.slowdown) this.slowdownCount.set(l.remoteId, (this.slowdownCount.get(l.remoteId) ?? 0) + 1);
      pressed.overloaded = l.sendBuffer.overloaded;
      pressed.slowdown = l.sendBuffer.slowdown;
    }
    step.demands.forEach((d, i) => {
      const t = this.threads[i];
      if (!t) return;
      t.execUs += Math.min(1, d.exec) * dtMs * 1000;
      t.sendUs += Math.min(1, d.send) * dtMs * 1000;
      t.elapsedUs += dtMs * 1000;
    });
    const second = Math.floor(at / 1000);
    const bucket = this.perSecond.get(second) ?? { redo: 0, lcp: 0 };
    bucket.redo += step.redoBytes;
    bucket.lcp += step.lcpBytes + (step.backupBytes ?? 0);
    if (!this.perSecond.has(second)) {
      this.perSecond.set(second, bucket);
      this.perSecond.delete(second - HISTORY_SECONDS - 1);
      // Counted once per second, as the server's disk write speed check runs once a second.
      if (step.redoAlert) this.slowdownsIoLag += 1;
      if (step.demands.some((d) => d.exec > 1)) this.slowdownsHighCpu += 1;
      if (step.idle) this.speedSetToMin += 1;
    }
  }

  /** Redo and LCP write speeds (bytes/s) over the last whole seconds before `now`. */
  writeSpeeds(now: number): { redo: SpeedFigures; lcp: SpeedFigures } {
    const current = Math.floor(now / 1000);
    const seconds = Array.from({ length: HISTORY_SECONDS }, (_, i) => this.perSecond.get(current - HISTORY_SECONDS + i) ?? { redo: 0, lcp: 0 });
    const figures = (pick: (b: { redo: number; lcp: number }) => number): SpeedFigures => {
      const xs = seconds.map(pick);
      const ten = speeds(xs, 10);
      const sixty = speeds(xs, 60);
      return { lastSec: xs[xs.length - 1] ?? 0, last10Sec: ten.mean, stdDev10Sec: ten.stdDev, last60Sec: sixty.mean, stdDev60Sec: sixty.stdDev };
    };
    return { redo: figures((b) => b.redo), lcp: figures((b) => b.lcp) };
  }
}
