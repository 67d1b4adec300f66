import { CELL_NONE, columnSeconds, decodeCells, toCell, type NdbinfoNode, type ThreadSeries } from '../../contract.js';
import { threadKey } from './threads.js';

/** cpustat's period: what a reading's figures cover before its time. */
const COVER_MS = 1000;
/**
 * Rings are cut from blocks of this many: one ArrayBuffer per 64 threads, not per thread (each its own backing store
 * outside the JS heap: at 144 × 20 threads, 2,880 of them made a mount's and a window switch's longest task).
 */
const BLOCK_RINGS = 64;

export interface GridThread {
  nodeId: number;
  thrNo: number;
  name: string | null;
}

/**
 * The Threads view's cells: per thread a ring of one byte per column (busy share in half percent, CELL_NONE without
 * a reading), over a window that ends at the newest reading and moves on with it. Filled from the engine's series
 * once, then extended by the ndbinfo figures every push carries, so a second's update writes one byte per thread.
 */
export class ThreadGrid {
  readonly stepMs: number;
  readonly columns: number;
  private endBucket: number;
  private readonly cells = new Map<number, Uint8Array>();
  private readonly info = new Map<number, GridThread>();
  private shapeVersion = 0;
  private block: Uint8Array | null = null;
  private blockUsed = 0;
  /** Per ring slot, the change stamp that last wrote it: a drawing redraws only the slots written since its own. */
  private readonly slotStamps: Uint32Array;
  private stamp = 0;

  /** `endSecond`: the newest second the window holds. */
  constructor(
    readonly windowMs: number,
    maxColumns: number,
    endSecond: number,
  ) {
    const seconds = Math.round(windowMs / 1000);
    const step = columnSeconds(seconds, maxColumns);
    this.stepMs = step * 1000;
    this.endBucket = Math.floor(endSecond / step);
    this.columns = this.endBucket - Math.floor((endSecond - seconds + 1) / step) + 1;
    this.slotStamps = new Uint32Array(this.columns);
  }

  /** What to ask the engine for: the same window in the same buckets. */
  static query(windowMs: number, maxColumns: number, endSecond: number): { fromMs: number; toMs: number; maxColumns: number } {
    return { fromMs: Math.max(0, (endSecond - Math.round(windowMs / 1000) + 1) * 1000), toMs: endSecond * 1000 + 999, maxColumns };
  }

  get fromMs(): number {
    return (this.endBucket - this.columns + 1) * this.stepMs;
  }

  get toMs(): number {
    return (this.endBucket + 1) * this.stepMs;
  }

  /** Moves when a thread is added or renamed: what depends on the rows only, not on their cells, is derived again then. */
  get threadsVersion(): number {
    return this.shapeVersion;
  }

  threads(): GridThread[] {
    return [...this.info.values()];
  }

  thread(key: number): GridThread | undefined {
    return this.info.get(key);
  }

  /** Moves with every load or append that wrote a cell. */
  get changes(): number {
    return this.stamp;
  }

  /** The ring slots written after change stamp `since`. */
  changedSlots(since: number): number[] {
    const out: number[] = [];
    for (let slot = 0; slot < this.columns; slot++) if (this.slotStamps[slot]! > since) out.push(slot);
    return out;
  }

  /** The ring slot of the oldest column: column c of every thread's ring is at (oldestSlot + c) % columns. */
  get oldestSlot(): number {
    return (this.endBucket - this.columns + 1) % this.columns;
  }

  /** A thread's cells as a ring of `columns` slots (see oldestSlot); undefined for a thread the grid has not seen. */
  ring(key: number): Uint8Array | undefined {
    return this.cells.get(key);
  }

  /** The engine's series for these threads; a cell keeps the higher share where both have one (as `put`). */
  load(series: ThreadSeries): void {
    if (series.stepMs !== this.stepMs) return;
    this.stamp += 1;
    const first = series.fromMs / this.stepMs;
    const from = Math.max(first, this.endBucket - this.columns + 1);
    let to = from - 1;
    // One loop over each answer's bytes without a call a cell: an hour's answer is ~2.6 M of them at 144 × 20 threads.
    for (const t of series.threads) {
      const bytes = decodeCells(t.busy);
      const row = this.row(t.nodeId, t.thrNo, t.name);
      const last = Math.min(first + bytes.length - 1, this.endBucket);
      for (let bucket = from; bucket <= last; bucket++) {
        const cell = bytes[bucket - first]!;
        const slot = bucket % this.columns;
        const before = row[slot]!;
        if (cell !== CELL_NONE && (before === CELL_NONE || cell > before)) row[slot] = cell;
      }
      to = Math.max(to, last);
    }
    for (let bucket = from; bucket <= to; bucket++) this.slotStamps[bucket % this.columns] = this.stamp;
  }

  /** A node's latest reading; true when it added anything. */
  append(node: NdbinfoNode): boolean {
    const threads = node.threads;
    if (!threads) return false;
    const bucket = Math.floor(threads.at / this.stepMs);
    this.stamp += 1;
    if (bucket > this.endBucket) this.advance(bucket);
    if (bucket <= this.endBucket - this.columns) return false;
    // As the engine's series: a reading covers about the second before it, which it fills when that has none.
    const before = Math.floor((threads.at - COVER_MS) / this.stepMs);
    for (const t of threads.threads) {
      const row = this.row(node.nodeId, t.thrNo, t.name);
      this.put(row, bucket, toCell(t.busy));
      if (before < bucket && row[before % this.columns] === CELL_NONE) this.put(row, before, toCell(t.busy));
    }
    return true;
  }

  /** The cell at `column` (0 = oldest) of a thread. */
  cell(key: number, column: number): number {
    const row = this.cells.get(key);
    return row ? row[(this.endBucket - this.columns + 1 + column) % this.columns]! : CELL_NONE;
  }

  /** Mean busy share over the window in percent (0 without readings): what "hottest" sorts by. */
  mean(key: number): number {
    const row = this.cells.get(key);
    if (!row) return 0;
    let sum = 0;
    let count = 0;
    for (const c of row) if (c !== CELL_NONE) [sum, count] = [sum + c, count + 1];
    return count === 0 ? 0 : sum / count / 2;
  }

  private row(nodeId: number, thrNo: number, name: string | null): Uint8Array {
    const key = threadKey(nodeId, thrNo);
    let row = this.cells.get(key);
    if (!row) {
      if (!this.block || this.blockUsed === BLOCK_RINGS) [this.block, this.blockUsed] = [new Uint8Array(BLOCK_RINGS * this.columns).fill(CELL_NONE), 0];
      row = this.block.subarray(this.blockUsed * this.columns, ++this.blockUsed * this.columns);
      this.cells.set(key, row);
    }
    const known = this.info.get(key);
    if (!known || (name !== null && known.name !== name)) {
      this.info.set(key, { nodeId, thrNo, name: name ?? known?.name ?? null });
      this.shapeVersion += 1;
    }
    return row;
  }

  private put(row: Uint8Array, bucket: number, cell: number): void {
    if (bucket > this.endBucket || bucket <= this.endBucket - this.columns) return;
    const slot = bucket % this.columns;
    const before = row[slot]!;
    if (before !== CELL_NONE && cell <= before) return;
    row[slot] = cell;
    this.slotStamps[slot] = this.stamp;
  }

  private advance(bucket: number): void {
    const from = Math.max(this.endBucket + 1, bucket - this.columns + 1);
    for (let b = from; b <= bucket; b++) {
      for (const row of this.cells.values()) row[b % this.columns] = CELL_NONE;
      this.slotStamps[b % this.columns] = this.stamp;
    }
    this.endBucket = bucket;
  }
}
