import type { HistoryPoint, HistorySeries } from '../contract.js';

/**
 * The last few minutes of the per-node series the node cards draw as sparklines. Fixed capacity, Float64Array per
 * key, NaN for "no value", mutated in place: the store bumps a version number instead of copying a buffer per push.
 */
export class HistoryRing {
  private readonly times: Float64Array;
  private readonly columns = new Map<string, Float64Array>();
  private start = 0;
  private count = 0;

  constructor(
    readonly capacity: number,
    private readonly keep: (key: string) => boolean,
  ) {
    this.times = new Float64Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  get lastAt(): number | null {
    return this.count === 0 ? null : (this.times[(this.start + this.count - 1) % this.capacity] ?? null);
  }

  push(point: HistoryPoint): void {
    const slot = this.append(point.at);
    if (slot === undefined) return;
    for (const [key, value] of Object.entries(point.values)) {
      if (!this.keep(key)) continue;
      this.column(key)[slot] = value ?? NaN;
    }
  }

  /**
   * Loads what the engine already had (columnar) before live points arrive, column by column: a backfill of 144
   * sparklines is one pass per series, not a record and a key lookup per node per second.
   */
  load(history: HistorySeries): void {
    // Several answers may cover the same seconds (node series, cluster totals): their columns join the same slots.
    const slots = new Map<number, number>();
    for (let i = 0; i < this.count; i++) {
      const slot = (this.start + i) % this.capacity;
      slots.set(this.times[slot] ?? 0, slot);
    }
    const slotOf = history.at.map((at) => slots.get(at) ?? this.append(at));
    for (const s of history.series) {
      if (!this.keep(s.key)) continue;
      const column = this.column(s.key);
      // In order: a slot this answer took over for a newer second (more seconds than the capacity) ends with its value.
      slotOf.forEach((slot, i) => {
        if (slot !== undefined) column[slot] = s.values[i] ?? NaN;
      });
    }
  }

  /** Points of one key with `from <= at <= to`, oldest first. */
  series(key: string, from: number, to: number): { at: number[]; values: number[] } {
    const column = this.columns.get(key);
    const at: number[] = [];
    const values: number[] = [];
    for (let i = 0; i < this.count; i++) {
      const slot = (this.start + i) % this.capacity;
      const t = this.times[slot] ?? 0;
      if (t < from || t > to) continue;
      at.push(t);
      values.push(column?.[slot] ?? NaN);
    }
    return { at, values };
  }

  /** A slot for a second after the newest (the oldest dropped when full), every column NaN; none for an older one. */
  private append(at: number): number | undefined {
    const last = this.lastAt;
    if (last !== null && at <= last) return undefined;
    const slot = (this.start + this.count) % this.capacity;
    if (this.count === this.capacity) this.start = (this.start + 1) % this.capacity;
    else this.count += 1;
    this.times[slot] = at;
    for (const column of this.columns.values()) column[slot] = NaN;
    return slot;
  }

  private column(key: string): Float64Array {
    let column = this.columns.get(key);
    if (!column) {
      column = new Float64Array(this.capacity).fill(NaN);
      this.columns.set(key, column);
    }
    return column;
  }
}
