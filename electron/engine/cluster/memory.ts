import type { MemoryUse } from '../../contract/schemas/node.js';
import type { ClusterEvent } from '../../../native-mgm/index.js';
import { sameValue } from '../../contract/page-safe/same-value.js';
import { FillTrends } from '../features/alerts/fill-trend.js';

/** MemoryUsage `block` (spec §6.7): DBTUP data memory and DBACC index memory. */
export const DATA_MEMORY_BLOCK = 249;
export const INDEX_MEMORY_BLOCK = 248;

export type MemoryKind = 'data' | 'index';

export interface NodeMemory {
  data: MemoryUse | null;
  index: MemoryUse | null;
}

const KINDS: readonly MemoryKind[] = ['data', 'index'];

/**
 * Per-node memory gauges from MemoryUsage records, whether they came as threshold events or `dump events`. A node's
 * figures are replaced only when they differ, so the same pages reported again leave its view as it was.
 */
export class MemoryTracker {
  private readonly nodes = new Map<number, NodeMemory>();
  private readonly trends = new FillTrends();

  /** The kind updated and whether its figures changed; null when the record is not a usable MemoryUsage. */
  apply(event: ClusterEvent): { kind: MemoryKind; changed: boolean } | null {
    if (event.name !== 'MemoryUsage') return null;
    const { block, pages_used: used, pages_total: total, page_size_bytes: pageSize } = event.fields;
    const kind: MemoryKind | null = block === DATA_MEMORY_BLOCK ? 'data' : block === INDEX_MEMORY_BLOCK ? 'index' : null;
    if (kind === null || used === undefined || total === undefined || !pageSize) return null;
    const percent = total > 0 ? (used * 100) / total : 0;
    const trend = this.trends.add(`${event.sourceNodeId}:${kind}`, event.receivedAt, percent);
    const use: MemoryUse = { usedPages: used, totalPages: total, pageSizeBytes: pageSize, percent, stale: false, trend };
    const node = this.nodes.get(event.sourceNodeId) ?? { data: null, index: null };
    this.nodes.set(event.sourceNodeId, node);
    if (sameValue(node[kind], use)) return { kind, changed: false };
    node[kind] = use;
    return { kind, changed: true };
  }

  /**
   * A `dump events 50` reply is one round: every data node that answered sent both figures. A node that has
   * figures and sent none this round keeps them, marked stale. Returns the nodes that turned stale.
   */
  endRound(reported: ReadonlySet<number>): number[] {
    const turned: number[] = [];
    for (const [id, node] of this.nodes) {
      if (reported.has(id)) continue;
      let changed = false;
      for (const kind of KINDS) {
        const use = node[kind];
        if (!use || use.stale) continue;
        node[kind] = { ...use, stale: true };
        changed = true;
      }
      if (changed) turned.push(id);
    }
    return turned;
  }

  /** Every node with figures of this kind, stale ones included. */
  figures(kind: MemoryKind): Array<[number, MemoryUse]> {
    const out: Array<[number, MemoryUse]> = [];
    for (const [id, node] of this.nodes) {
      const use = node[kind];
      if (use) out.push([id, use]);
    }
    return out;
  }

  node(id: number): NodeMemory {
    return this.nodes.get(id) ?? { data: null, index: null };
  }

  /** Cluster figure: pages used over pages configured across data nodes, as a percentage. */
  clusterPercent(kind: MemoryKind, nodeIds: Iterable<number>): number | null {
    let used = 0;
    let total = 0;
    for (const id of nodeIds) {
      const m = this.nodes.get(id)?.[kind];
      if (!m) continue;
      used += m.usedPages;
      total += m.totalPages;
    }
    return total > 0 ? (used * 100) / total : null;
  }
}
