import type { ClusterModel } from '../../../native-mgm/sim/index.js';
import { whole, type Row, type TableRows } from './row-context.js';

const REDO_BUFFER_DEFAULT = 32 * 1024 * 1024;
const BACKUP_DATA_BUFFER = 16 * 1024 * 1024;
const BACKUP_LOG_BUFFER = 16 * 1024 * 1024;
/** Sim ms of writes that wait in the redo buffer before they reach the disk (all of it once the log is overloaded). */
const REDO_BUFFERED_MS = 20;

function param(model: ClusterModel, nodeId: number, key: string, fallback: number): number {
  const v = Number(model.config?.nodes.find((n) => n.nodeId === nodeId)?.params[key]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

export const logspaces: TableRows = ({ model, nodes }) =>
  nodes.flatMap((n) => {
    const redo = model.activity.redoLog(n.id);
    return Array.from({ length: redo.parts }, (_, part): Row => [n.id, 'REDO', 0, part, redo.partBytes, whole(redo.partUsed(part))]);
  });

export const logbuffers: TableRows = ({ model, nodes, at }) =>
  nodes.flatMap((n) => {
    const redo = model.activity.redoLog(n.id);
    const buffer = param(model, n.id, 'RedoBuffer', REDO_BUFFER_DEFAULT);
    const perSec = model.activity.loadAt(n, at).replicaWrites * model.activity.rowBytes;
    // Redo a slow disk has not taken yet waits here too (a GCP stop's first sign).
    const inBuffer = redo.overloaded ? buffer : Math.min(buffer, (perSec * REDO_BUFFERED_MS) / 1000 + redo.buffered);
    const ldms = model.activity.threads(n.id).filter((t) => t.kind === 'ldm').length || 1;
    const rows: Row[] = Array.from({ length: redo.parts }, (_, part): Row => [n.id, 'REDO', 0, part, buffer, whole(inBuffer * redo.partShare(part))]);
    // A local checkpoint writes through the backup data buffer of each LDM.
    const lcpInBuffer = redo.lcpRunning ? Math.min(BACKUP_DATA_BUFFER, redo.speed * 0.05) : 0;
    for (let i = 0; i < ldms; i++) rows.push([n.id, 'BACKUP-DATA', 0, i, BACKUP_DATA_BUFFER, whole(lcpInBuffer / ldms)]);
    for (let i = 0; i < ldms; i++) rows.push([n.id, 'BACKUP-LOG', 0, i, BACKUP_LOG_BUFFER, 0]);
    return rows;
  });

export const diskWriteSpeedAggregateNode: TableRows = ({ model, nodes, at }) =>
  nodes.map((n): Row => {
    const totals = model.activity.nodeTotals(n.id);
    const { redo, lcp } = totals.writeSpeeds(at);
    return [
      n.id,
      whole(lcp.lastSec), whole(redo.lastSec), whole(lcp.last10Sec), whole(redo.last10Sec),
      whole(lcp.stdDev10Sec), whole(redo.stdDev10Sec), whole(lcp.last60Sec), whole(redo.last60Sec),
      whole(lcp.stdDev60Sec), whole(redo.stdDev60Sec),
      totals.slowdownsIoLag, totals.slowdownsHighCpu, totals.speedSetToMin, whole(model.activity.redoLog(n.id).speed),
    ];
  });

/** One PGMAN instance per LDM thread (block_instance 1..), sharing the node's page cache traffic evenly. */
export const diskpagebuffer: TableRows = ({ model, nodes }) =>
  nodes.flatMap((n) => {
    const d = model.activity.nodeTotals(n.id).disk;
    const ldms = model.activity.threads(n.id).filter((t) => t.kind === 'ldm').length || 1;
    return Array.from({ length: ldms }, (_, i): Row => [
      n.id, i + 1,
      ...[d.pagesWritten, d.pagesWrittenLcp, d.pagesRead, d.logWaits, d.directReturn, d.waitQueue, d.waitIo].map((x) => whole(x / ldms)),
    ]);
  });
