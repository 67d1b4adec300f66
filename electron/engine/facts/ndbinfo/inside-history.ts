import type { NdbinfoLink, NdbinfoNode, NdbinfoThread } from '../../../contract/schemas/ndbinfo.js';
import { NodeRingHistory } from '../history/node-ring-history.js';

/** Thread kinds a verdict names; `query` threads do LDM work and `rep` runs beside main, so they count with those. */
export const THREAD_KINDS = ['ldm', 'tc', 'recv', 'send', 'main'] as const;
export type ThreadKindName = (typeof THREAD_KINDS)[number];

const KIND_OF: Readonly<Record<string, ThreadKindName>> = { ldm: 'ldm', query: 'ldm', tc: 'tc', recv: 'recv', send: 'send', main: 'main', rep: 'main' };

/** What the bottleneck verdict reads per data node and second, beside the cluster's throughput. */
export const INSIDE_FIGURES = [...THREAD_KINDS, 'sendBuffer', 'overloaded', 'redoFill', 'ioLag', 'diskHit'] as const;
export type InsideFigure = (typeof INSIDE_FIGURES)[number];
export type InsideValues = Partial<Record<InsideFigure, number | null>>;

/** A stretch of the inside history: times, and per data node each figure's values at those times. */
export interface InsideWindow {
  at: number[];
  nodes: Map<number, Record<InsideFigure, Array<number | null>>>;
}

/** Mean busy share of a node's threads of each kind at one moment. */
export function kindBusy(threads: readonly NdbinfoThread[]): Partial<Record<ThreadKindName, number>> {
  const sum: Partial<Record<ThreadKindName, { total: number; n: number }>> = {};
  for (const t of threads) {
    const kind = t.name === null ? undefined : KIND_OF[t.name];
    if (!kind) continue;
    const s = (sum[kind] ??= { total: 0, n: 0 });
    s.total += t.busy;
    s.n += 1;
  }
  const out: Partial<Record<ThreadKindName, number>> = {};
  for (const k of THREAD_KINDS) {
    const s = sum[k];
    if (s) out[k] = s.total / s.n;
  }
  return out;
}

/** One data node's figures now, from the SQL source's latest (not stale) readings. */
export function insideValues(node: NdbinfoNode, links: readonly NdbinfoLink[]): InsideValues {
  if (node.stale) return {};
  const own = links.filter((l) => l.nodeId === node.nodeId);
  return {
    ...(node.threads ? kindBusy(node.threads.threads) : {}),
    sendBuffer: node.sendBuffer?.percent ?? null,
    overloaded: own.length > 0 ? (own.some((l) => l.overloaded || l.slowdown) ? 1 : 0) : null,
    redoFill: node.redo?.percent ?? null,
    ioLag: node.diskWrite?.ioLagPerSec ?? null,
    diskHit: node.diskPageBuffer?.hitRatio ?? null,
  };
}

const key = (nodeId: number, figure: InsideFigure): string => `${nodeId}.${figure}`;

/**
 * What the SQL source showed of each data node, one sample per history tick, in flat ring buffers beside the
 * cluster history (same ticks, same length), so a run's bottleneck is read from its own seconds. Columns exist only
 * for nodes the source reported: without it, nothing is kept.
 */
export class InsideHistory extends NodeRingHistory {
  record(at: number, nodes: ReadonlyMap<number, InsideValues>): void {
    const values: Record<string, number | null> = {};
    for (const [id, v] of nodes) {
      this.nodeIds.add(id);
      for (const f of INSIDE_FIGURES) values[key(id, f)] = v[f] ?? null;
    }
    this.ring.push(at, values);
  }

  window(from: number, to: number): InsideWindow {
    const { start, end } = this.ring.range(from, to);
    const at = Array.from({ length: end - start }, (_, i) => this.ring.timeAt(start + i));
    const nodes = new Map<number, Record<InsideFigure, Array<number | null>>>();
    for (const id of this.knownNodeIds()) {
      const figures = Object.fromEntries(INSIDE_FIGURES.map((f) => [f, at.map((_, i) => this.ring.valueAt(key(id, f), start + i))])) as Record<InsideFigure, Array<number | null>>;
      nodes.set(id, figures);
    }
    return { at, nodes };
  }
}
