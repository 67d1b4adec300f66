import type { NdbinfoSnapshot } from '../../../ndbinfo/client/read-once.js';
import { featuresOf } from '../../engine/facts/ndbinfo/capabilities.js';
import type { LogRow, MemoryRow, RestartRow, ThreadCpuRow, TransporterRow } from '../../../ndbinfo/client/rows.js';

/** `ndbtop ndbinfo --json`: the values as the server gave them (percentages as percentages, bytes as bytes). */
export function ndbinfoJson(snap: NdbinfoSnapshot): unknown {
  const rows = <K extends keyof NdbinfoSnapshot['samples']>(k: K) => (snap.samples[k]?.rows ?? []) as NonNullable<NdbinfoSnapshot['samples'][K]>['rows'];
  return {
    sqlNode: snap.sqlNode,
    serverVersion: snap.serverVersion,
    tables: snap.tables,
    missing: snap.missing,
    threads: rows('cpu').map((t: ThreadCpuRow) => ({
      nodeId: t.nodeId, thrNo: t.thrNo, name: t.threadName, osUser: t.osUser, osSystem: t.osSystem, osIdle: t.osIdle,
      exec: t.threadExec, sleep: t.threadSleeping, spin: t.threadSpinning, send: t.threadSend, bufferFull: t.threadBufferFull,
    })),
    restarts: rows('restarts').map((r: RestartRow) => ({ nodeId: r.nodeId, status: r.status, statusInt: r.statusInt, phases: r.phases, totalSecs: r.totalSecs })),
    redo: rows('logspaces').map((l: LogRow) => ({ nodeId: l.nodeId, logType: l.logType, logId: l.logId, logPart: l.logPart, total: l.total, used: l.used })),
    transporters: rows('transporters').map((t: TransporterRow) => ({
      nodeId: t.nodeId, remoteNodeId: t.remoteNodeId, status: t.status, bytesSent: t.bytesSent, bytesReceived: t.bytesReceived, overloaded: t.overloaded, slowdown: t.slowdown,
    })),
    memory: rows('memory').map((m: MemoryRow) => ({ nodeId: m.nodeId, memoryType: m.memoryType, used: m.used, total: m.total })),
  };
}

function table(header: readonly string[], body: ReadonlyArray<readonly (string | number)[]>): string {
  const cells = [header, ...body.map((r) => r.map(String))];
  // A loop, not Math.max(...cells): spreading a long answer's rows as arguments overflowed the stack.
  const widths = header.map((_, i) => cells.reduce((w, r) => Math.max(w, (r[i] ?? '').length), 0));
  return cells.map((r) => r.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ').trimEnd()).join('\n');
}

const mib = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MiB`;
const pct = (used: number, total: number): string => (total > 0 ? `${((100 * used) / total).toFixed(1)}%` : '-');

/** One node's part of the plain output: its threads as ndb_top shows them, then restart, logs, links and memory. */
function nodeText(id: number, snap: NdbinfoSnapshot): string {
  const of = <T extends { nodeId: number }>(rows: readonly T[] | undefined): T[] => (rows ?? []).filter((r) => r.nodeId === id);
  const out = [`Node ${id}`];
  const threads = of(snap.samples.cpu?.rows);
  if (threads.length > 0) {
    out.push(table(['thr', 'name', 'OS user%', 'sys%', 'idle%', 'exec%', 'sleep%', 'spin%', 'send%', 'buf full%'],
      threads.map((t) => [t.thrNo, t.threadName ?? '?', t.osUser, t.osSystem, t.osIdle, t.threadExec, t.threadSleeping, t.threadSpinning, t.threadSend, t.threadBufferFull])));
  }
  for (const r of of(snap.samples.restarts?.rows)) out.push(`restart: ${r.status} (${r.statusInt}), last restart took ${r.totalSecs} s`);
  const logs = of(snap.samples.logspaces?.rows);
  if (logs.length > 0) out.push(table(['log', 'part', 'used', 'total', 'fill'], logs.map((l) => [`${l.logType} ${l.logId}`, l.logPart, mib(l.used), mib(l.total), pct(l.used, l.total)])));
  const links = of(snap.samples.transporters?.rows);
  if (links.length > 0) {
    out.push(table(['to node', 'status', 'sent', 'received', 'overloaded', 'slowdown'],
      links.map((t) => [t.remoteNodeId, t.status, mib(t.bytesSent), mib(t.bytesReceived), t.overloaded ? 'yes' : 'no', t.slowdown ? 'yes' : 'no'])));
  }
  const memory = of(snap.samples.memory?.rows);
  if (memory.length > 0) out.push(table(['memory', '', 'used', 'total', 'use'], memory.map((m) => [m.memoryType, '', mib(m.used), mib(m.total), pct(m.used, m.total)])));
  return out.join('\n\n');
}

/** The plain output of `ndbtop ndbinfo`: which SQL node answered, what it lacks, then one block per data node. */
export function formatNdbinfo(snap: NdbinfoSnapshot): string {
  const ids = new Set<number>();
  for (const s of Object.values(snap.samples)) for (const r of s.rows) ids.add(r.nodeId);
  const head = [`SQL node ${snap.sqlNode} (${snap.serverVersion}${snap.tls ? ', TLS' : ''})`];
  if (snap.missing.length > 0) head.push(`not on this SQL node: ${snap.missing.map((t) => `ndbinfo.${t}`).join(', ')}`);
  // What the release lacks among the figures ndbtop shows, and why: the engine's sentences.
  for (const f of featuresOf(snap)) if (f.why) head.push(`  ${f.why}`);
  const nodes = [...ids].sort((a, b) => a - b).map((id) => nodeText(id, snap));
  return `${[head.join('\n'), ...nodes].join('\n\n')}\n`;
}
