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
    const last = this.lastAt;
    if (last !== null && point.at <= last) return;
    const slot = (this.start + this.count) % this.capacity;
    if (this.count === this.capacity) this.start = (this.start + 1) % this.capacity;
    else this.count += 1;
    this.times[slot] = point.at;
    for (const column of this.columns.values()) column[slot] = NaN;
    for (const [key, value] of Object.entries(point.values)) {
      if (!this.keep(key)) continue;
      this.column(key)[slot] = value ?? NaN;
    }
  }

  /** Loads what the engine already had (columnar) before live points arrive. */
  load(history: HistorySeries): void {
    // Several answers may cover the same seconds (node series, cluster totals): their columns join the same slots.
    const slots = new Map<number, number>();
    for (let i = 0; i < this.count; i++) {
      const slot = (this.start + i) % this.capacity;
      slots.set(this.times[slot] ?? 0, slot);
    }
    history.at.forEach((at, i) => {
      const slot = slots.get(at);
      if (slot === undefined) {
        const values: Record<string, number | null> = {};
        for (const s of history.series) values[s.key] = s.values[i] ?? null;
        this.push({ at, values });
        return;
      }
      for (const s of history.series) if (this.keep(s.key)) this.column(s.key)[slot] = s.values[i] ?? NaN;
    });
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

  private column(key: string): Float64Array {
    let column = this.columns.get(key);
    if (!column) {
      column = new Float64Array(this.capacity).fill(NaN);
      this.columns.set(key, column);
    }
    return column;
  }
}
