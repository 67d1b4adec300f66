import type { MemoryUse } from '../../contract/node.js';
import type { ClusterEvent } from '../../../native-mgm/index.js';

/** MemoryUsage `block` (spec §6.7): DBTUP data memory and DBACC index memory. */
export const DATA_MEMORY_BLOCK = 249;
export const INDEX_MEMORY_BLOCK = 248;

export type MemoryKind = 'data' | 'index';

export interface NodeMemory {
  data: MemoryUse | null;
  index: MemoryUse | null;
}

/** Per-node memory gauges from MemoryUsage records, whether they came as threshold events or `dump events`. */
export class MemoryTracker {
  private readonly nodes = new Map<number, NodeMemory>();

  /** Returns the kind updated, or null when the record is not a usable MemoryUsage. */
  apply(event: ClusterEvent): MemoryKind | null {
    if (event.name !== 'MemoryUsage') return null;
    const { block, pages_used: used, pages_total: total, page_size_bytes: pageSize } = event.fields;
    const kind: MemoryKind | null = block === DATA_MEMORY_BLOCK ? 'data' : block === INDEX_MEMORY_BLOCK ? 'index' : null;
    if (kind === null || used === undefined || total === undefined || !pageSize) return null;
    const use: MemoryUse = {
      usedPages: used,
      totalPages: total,
      pageSizeBytes: pageSize,
      percent: total > 0 ? (used * 100) / total : 0,
      at: event.receivedAt,
    };
    const node = this.nodes.get(event.sourceNodeId) ?? { data: null, index: null };
    node[kind] = use;
    this.nodes.set(event.sourceNodeId, node);
    return kind;
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
