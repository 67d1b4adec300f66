import type { NdbinfoDiskPageBuffer, NdbinfoDiskWrite, NdbinfoHostCpu, NdbinfoLink, NdbinfoLogFill, NdbinfoRestart, NdbinfoSendBuffer, NdbinfoThread, NdbinfoThreads } from '../../../contract/schemas/ndbinfo.js';
import { restartInProgress } from '../../../../ndbinfo/client/restart-progress.js';
import type { DiskPageBufferRow, DiskWriteSpeedRow, HostCpuRow, LogRow, RestartRow, ThreadCpuRow, TransporterDetailRow, TransporterRow } from '../../../../ndbinfo/client/rows.js';

// Pure functions from one reading's rows to the figures the contract carries, one per node (or link).

/** Rows grouped by their data node, in the order given. */
export function byNode<R extends { nodeId: number }>(rows: readonly R[]): Map<number, R[]> {
  const out = new Map<number, R[]>();
  for (const r of rows) {
    const list = out.get(r.nodeId);
    if (list) list.push(r);
    else out.set(r.nodeId, [r]);
  }
  return out;
}

const percentOf = (used: number, total: number): number | null => (total > 0 ? Math.round((used / total) * 1000) / 10 : null);

/**
 * The share of the second a thread did not sleep. Spinning counts as busy: the OS sees the core taken, and ndb_top
 * shows it apart only in the split.
 */
export function busyShare(exec: number, send: number, spin: number, bufferFull: number): number {
  return Math.min(100, exec + send + spin + bufferFull);
}

function thread(r: ThreadCpuRow): NdbinfoThread {
  return { thrNo: r.thrNo, name: r.threadName, busy: busyShare(r.threadExec, r.threadSend, r.threadSpinning, r.threadBufferFull) };
}

export function threadsFigure(rows: readonly ThreadCpuRow[], at: number): NdbinfoThreads {
  const threads = rows.map(thread).sort((a, b) => a.thrNo - b.thrNo);
  let hottest: NdbinfoThread | null = null;
  for (const t of threads) if (!hottest || t.busy > hottest.busy) hottest = t;
  return { at, threads, hottest: hottest && { thrNo: hottest.thrNo, name: hottest.name, busy: hottest.busy } };
}

/** The fullest part of one kind of log (`REDO`, `DD-UNDO`); null when the node has none of it. */
export function logFill(rows: readonly LogRow[], logType: string, at: number): NdbinfoLogFill | null {
  let worst: LogRow | null = null;
  let parts = 0;
  const share = (r: LogRow): number => (r.total > 0 ? r.used / r.total : 0);
  for (const r of rows) {
    if (r.logType !== logType) continue;
    parts += 1;
    if (!worst || share(r) > share(worst)) worst = r;
  }
  return worst && { at, used: worst.used, total: worst.total, percent: percentOf(worst.used, worst.total), logId: worst.logId, logPart: worst.logPart, parts };
}

/** The node's disk page buffer over its instances: the hit ratio of the last interval and since the start. */
export function diskPageBufferFigure(rows: readonly DiskPageBufferRow[], at: number): NdbinfoDiskPageBuffer {
  let hits = 0;
  let waits = 0;
  let hitsAll = 0;
  let waitsAll = 0;
  let rated = true;
  for (const r of rows) {
    hitsAll += r.pageRequestsDirectReturn;
    waitsAll += r.pageRequestsWaitIo;
    const h = r.perSec.pageRequestsDirectReturn;
    const w = r.perSec.pageRequestsWaitIo;
    if (h === null || w === null) rated = false;
    else {
      hits += h;
      waits += w;
    }
  }
  const ratio = (h: number, w: number): number | null => (h + w > 0 ? h / (h + w) : null);
  return { at, hitRatio: rated ? ratio(hits, waits) : null, hitRatioSinceStart: ratio(hitsAll, waitsAll), waitIoPerSec: rated ? waits : null };
}

export function sendBufferFigure(rows: readonly TransporterDetailRow[], at: number): NdbinfoSendBuffer {
  let used = 0;
  let allocated = 0;
  for (const r of rows) {
    used += r.sendbufferUsedBytes;
    allocated += r.sendbufferAllocBytes;
  }
  return { at, used, allocated, percent: percentOf(used, allocated) };
}

/** A node's disk write speed; the aggregate view has one row per node. */
export function diskWriteFigure(r: DiskWriteSpeedRow, at: number): NdbinfoDiskWrite {
  return {
    at,
    redoBytesPerSec: r.redoSpeedLastSec,
    lcpBytesPerSec: r.backupLcpSpeedLastSec,
    targetBytesPerSec: r.currentTargetDiskWriteSpeed,
    slowdownsIoLag: r.slowdownsDueToIoLag,
    slowdownsHighCpu: r.slowdownsDueToHighCpu,
    ioLagPerSec: r.perSec.slowdownsDueToIoLag,
  };
}

export function restartFigure(r: RestartRow, at: number): NdbinfoRestart {
  return { at, status: r.status, phases: { ...r.phases }, totalSecs: r.totalSecs, statusName: r.statusName, inProgress: restartInProgress(r) };
}

export function linkFigure(r: TransporterRow): NdbinfoLink {
  return {
    nodeId: r.nodeId,
    remoteNodeId: r.remoteNodeId,
    status: r.status,
    sentPerSec: r.perSec.bytesSent,
    receivedPerSec: r.perSec.bytesReceived,
    overloaded: r.overloaded !== 0,
    slowdown: r.slowdown !== 0,
    bytesSent: r.bytesSent,
    bytesReceived: r.bytesReceived,
    overloadCount: r.overloadCount,
    slowdownCount: r.slowdownCount,
  };
}

/** The host's CPUs over those online: each CPU's times as shares of its own total (their unit is not documented). */
export function hostCpuFigure(rows: readonly HostCpuRow[], at: number): NdbinfoHostCpu {
  let online = 0;
  let counted = 0;
  let busy = 0;
  let user = 0;
  let system = 0;
  for (const r of rows) {
    if (r.cpuOnline === 0) continue;
    online += 1;
    const work = r.cpuUserspaceTime + r.cpuSystemTime + r.cpuInterruptTime + r.cpuExecVmTime;
    const total = work + r.cpuIdleTime;
    if (total <= 0) continue;
    counted += 1;
    busy += work / total;
    user += r.cpuUserspaceTime / total;
    system += r.cpuSystemTime / total;
  }
  const mean = (sum: number): number | null => (counted > 0 ? Math.round((sum / counted) * 1000) / 10 : null);
  return { at, online, cpus: rows.length, busy: mean(busy), user: mean(user), system: mean(system) };
}
