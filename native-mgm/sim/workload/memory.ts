import type { ClusterState } from '../state/cluster-state.js';
import { BENCHMARK_RATES, type LoadRates } from './load-profile.js';
import { derivePrng, type Prng } from '../state/prng.js';
import { makeEvent, type SimEvent } from '../state/sim-event.js';

/** CMVMI checks memory once a second and reports crossings of these percentages, either way (spec §7.1). */
const CHECK_EVERY_MS = 1000;
const THRESHOLDS = [80, 90, 99, 100] as const;
/** MemoryUsage `block`: DBTUP data memory and DBACC index memory, with the page sizes CMVMI reports for each. */
export const DATA_BLOCK = 249;
export const INDEX_BLOCK = 248;
const DATA_PAGE_BYTES = 32768;
const INDEX_PAGE_BYTES = 8192;
/** 2 GiB DataMemory and 64 MiB of hash index pages per node. */
const DATA_PAGES = 65536;
const INDEX_PAGES = 8192;
export const SIM_DATA_MEMORY_BYTES = DATA_PAGES * DATA_PAGE_BYTES;
export const SIM_INDEX_MEMORY_BYTES = INDEX_PAGES * INDEX_PAGE_BYTES;
/** Idle fill, and how much more a full benchmark load fills, as fractions of the total. */
const DATA_BASE = 0.3;
const DATA_LOAD = 0.6;
const INDEX_BASE = 0.2;
const INDEX_LOAD = 0.45;
/** How far one node's fill under load may be from another's: ±1.5 % of its level. */
const NODE_SPREAD = 0.03;
/** Memory follows the load with this time constant. */
const FOLLOW_MS = 8000;

interface Pool {
  block: number;
  pageBytes: number;
  total: number;
  used: number;
  base: number;
  load: number;
  /** Last threshold reported (0 = below all). */
  level: number;
  /** This node's own share of the load's rows, fixed: nodes settle at different levels, each steady at a steady load. */
  offset: number;
}

function thresholdLevel(used: number, total: number): number {
  const percent = Math.floor((used * 100) / total);
  let level = 0;
  for (const t of THRESHOLDS) if (percent >= t) level = t;
  return level;
}

/**
 * Data and index memory per data node. Usage drifts toward a level set by the current load, and a MemoryUsage
 * event goes out when it crosses a threshold (gth +1 up, -1 down), or with gth 0 when asked (`dump events`).
 */
export class MemoryModel {
  private readonly poolsByNode = new Map<number, Pool[]>();
  private readonly prng: Prng;

  constructor(
    private readonly cluster: ClusterState,
    private readonly rates: () => LoadRates,
    seed: number,
  ) {
    this.prng = derivePrng(seed, 50);
    for (const [id, node] of cluster.data) {
      // Configured sizes (sim --config) count as the pages the node reports; an IndexMemory of 0 (8.0+) keeps the
      // simulator's hash index pool.
      const dataPages = Math.max(1, Math.floor((node.dataMemoryBytes ?? SIM_DATA_MEMORY_BYTES) / DATA_PAGE_BYTES));
      const indexPages = Math.max(1, Math.floor((node.indexMemoryBytes || SIM_INDEX_MEMORY_BYTES) / INDEX_PAGE_BYTES));
      this.poolsByNode.set(id, [
        { block: DATA_BLOCK, pageBytes: DATA_PAGE_BYTES, total: dataPages, used: dataPages * DATA_BASE, base: DATA_BASE, load: DATA_LOAD, level: 0, offset: this.offset() },
        { block: INDEX_BLOCK, pageBytes: INDEX_PAGE_BYTES, total: indexPages, used: indexPages * INDEX_BASE, base: INDEX_BASE, load: INDEX_LOAD, level: 0, offset: this.offset() },
      ]);
    }
    // A data node's CMVMI starts with nothing reported (its last level 0): a node that went down and started again
    // reports every threshold its pages are past at its first check, so its events say what `dump events` says.
    cluster.onStatusChange((node) => {
      if (node.status === 'STARTED' || node.status === 'SHUTTING_DOWN') return;
      for (const p of this.poolsByNode.get(node.id) ?? []) p.level = 0;
    });
    this.tick();
  }

  /** Each pool of a data node as its MemoryUsage reports count it (ndbinfo's memoryusage shows the same pages). */
  pools(nodeId: number): ReadonlyArray<{ block: number; pageBytes: number; usedPages: number; totalPages: number }> {
    return (this.poolsByNode.get(nodeId) ?? []).map((p) => ({ block: p.block, pageBytes: p.pageBytes, usedPages: Math.round(p.used), totalPages: p.total }));
  }

  /** MemoryUsage records with gth 0, two per node, for `dump events` type 50. */
  report(nodeId: number): SimEvent[] {
    return (this.poolsByNode.get(nodeId) ?? []).map((p) => this.event(nodeId, p, 0));
  }

  private tick(): void {
    const r = this.rates();
    const peak = BENCHMARK_RATES.readsPerSec + BENCHMARK_RATES.writesPerSec;
    const intensity = Math.min(1, (r.readsPerSec + r.writesPerSec) / peak);
    const follow = 1 - Math.exp(-CHECK_EVERY_MS / FOLLOW_MS);
    for (const [id, pools] of this.poolsByNode) {
      if (this.cluster.data.get(id)?.status !== 'STARTED') continue;
      for (const p of pools) {
        // Rows come and go only with load: an idle node's pages stay exactly as they are, as on a real cluster. The
        // level a load leads to is the node's own and steady: a fresh random draw each second made every node at the
        // benchmark's peak (90 %) cross 90 % up and down every few seconds, events a real node does not send.
        const target = p.total * (p.base + p.load * intensity) * (1 + p.offset * intensity);
        p.used = Math.min(p.total, Math.max(0, p.used + (target - p.used) * follow));
        const level = thresholdLevel(Math.round(p.used), p.total);
        if (level !== p.level) {
          this.cluster.emit(this.event(id, p, level > p.level ? 1 : -1));
          p.level = level;
        }
      }
    }
    this.cluster.clock.after(CHECK_EVERY_MS, () => this.tick());
  }

  private offset(): number {
    return (this.prng() - 0.5) * NODE_SPREAD;
  }

  private event(nodeId: number, p: Pool, gth: number): SimEvent {
    return makeEvent('MemoryUsage', nodeId, { gth, page_size_bytes: p.pageBytes, pages_used: Math.round(p.used), pages_total: p.total, block: p.block });
  }
}
