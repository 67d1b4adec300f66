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
/**
 * What a row takes beyond its own bytes: in DataMemory its header and the pages' slack (a fixed-size part per row),
 * in the hash index one entry. Not measured figures: of the order NDB's own sizing guide gives.
 */
export const DATA_ROW_OVERHEAD_BYTES = 60;
const INDEX_ENTRY_BYTES = 24;
/** How fast a dropped table's pages go back to the free list (DBTUP releases whole fragments, not rows). */
const DROP_BYTES_PER_SEC = 512 * 1024 * 1024;

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
  /** Bytes one row takes in this pool, beyond the row's own bytes (DataMemory) or in all (hash index). */
  rowBytes: (row: number) => number;
  /** Set while a dropped table's pages are freed: the pool falls to its idle fill, whatever the load. */
  dropping: boolean;
}

/** What moves a node's memory in a second: the rows its writes insert or delete, as each replica stores them. */
export interface MemoryDrivers {
  rates: () => LoadRates;
  /** The bytes of a row the load writes (the activity's row size, which its redo and links carry too). */
  rowBytes: () => number;
}

function thresholdLevel(used: number, total: number): number {
  const percent = Math.floor((used * 100) / total);
  let level = 0;
  for (const t of THRESHOLDS) if (percent >= t) level = t;
  return level;
}

/**
 * Data and index memory per data node. The load keeps a data set of its size (a benchmark inserts its rows as it
 * warms up and deletes them as it cools down), and usage moves toward it only as fast as the load's writes insert or
 * delete rows: a node's replica writes per second × the bytes a row takes in the pool. No writes, no change; a dropped
 * table's pages come back at DBTUP's pace (`dropTable`). A MemoryUsage event goes out when usage crosses a threshold
 * (gth +1 up, -1 down), or with gth 0 when asked (`dump events`).
 */
export class MemoryModel {
  private readonly poolsByNode = new Map<number, Pool[]>();
  private readonly prng: Prng;
  /** Sim time of the last check: rows go in for the time that passed, however late the check's timer fired. */
  private checkedAt: number;

  constructor(
    private readonly cluster: ClusterState,
    private readonly drivers: MemoryDrivers,
    seed: number,
  ) {
    this.prng = derivePrng(seed, 50);
    this.checkedAt = cluster.clock.now();
    for (const [id, node] of cluster.data) {
      // Configured sizes (sim --config) count as the pages the node reports; an IndexMemory of 0 (8.0+) keeps the
      // simulator's hash index pool.
      const dataPages = Math.max(1, Math.floor((node.dataMemoryBytes ?? SIM_DATA_MEMORY_BYTES) / DATA_PAGE_BYTES));
      const indexPages = Math.max(1, Math.floor((node.indexMemoryBytes || SIM_INDEX_MEMORY_BYTES) / INDEX_PAGE_BYTES));
      this.poolsByNode.set(id, [
        { block: DATA_BLOCK, pageBytes: DATA_PAGE_BYTES, total: dataPages, used: dataPages * DATA_BASE, base: DATA_BASE, load: DATA_LOAD, level: 0, offset: this.offset(), rowBytes: (row) => row + DATA_ROW_OVERHEAD_BYTES, dropping: false },
        { block: INDEX_BLOCK, pageBytes: INDEX_PAGE_BYTES, total: indexPages, used: indexPages * INDEX_BASE, base: INDEX_BASE, load: INDEX_LOAD, level: 0, offset: this.offset(), rowBytes: () => INDEX_ENTRY_BYTES, dropping: false },
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

  /**
   * The load's table is dropped (a benchmark's end): every STARTED node frees the pages its rows took, down to the
   * idle fill, at DBTUP's pace rather than a delete's.
   */
  dropTable(): void {
    for (const pools of this.poolsByNode.values()) for (const p of pools) p.dropping = p.used > p.total * p.base;
  }

  private tick(): void {
    const r = this.drivers.rates();
    const peak = BENCHMARK_RATES.readsPerSec + BENCHMARK_RATES.writesPerSec;
    const intensity = Math.min(1, (r.readsPerSec + r.writesPerSec) / peak);
    let started = 0;
    for (const n of this.cluster.data.values()) if (n.status === 'STARTED') started++;
    // Every write runs on each replica; the STARTED nodes share the load evenly (as `activity/node-load.ts` has it).
    const replicaWrites = started ? (r.writesPerSec * this.cluster.replicas) / started : 0;
    const row = this.drivers.rowBytes();
    // A starved event loop fires the check late; a fixed second a check left the fill behind the load's phases (which
    // follow the sim clock), so a benchmark's run could end before its nodes reached their level.
    const now = this.cluster.clock.now();
    const seconds = (now - this.checkedAt) / 1000;
    this.checkedAt = now;
    for (const [id, pools] of this.poolsByNode) {
      if (this.cluster.data.get(id)?.status !== 'STARTED') continue;
      for (const p of pools) {
        // The level a load leads to is the node's own and steady: a fresh random draw each second made every node at
        // the benchmark's peak (90 %) cross 90 % up and down every few seconds, events a real node does not send.
        const target = p.dropping ? p.total * p.base : p.total * (p.base + p.load * intensity) * (1 + p.offset * intensity);
        // Rows come and go only with writes: an idle node's pages stay exactly as they are, as on a real cluster.
        const reach = p.dropping ? DROP_BYTES_PER_SEC * seconds : replicaWrites * p.rowBytes(row) * seconds;
        const step = Math.max(-reach, Math.min(reach, (target - p.used) * p.pageBytes)) / p.pageBytes;
        p.used = Math.min(p.total, Math.max(0, p.used + step));
        if (p.dropping && p.used <= target) p.dropping = false;
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
