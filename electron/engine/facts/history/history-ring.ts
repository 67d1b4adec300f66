/**
 * Columns of samples sharing one time axis, in fixed-size ring buffers: an hour at one sample a second for a
 * large cluster stays a few flat typed arrays. A value that was not known is NaN here and null outside.
 */
export class HistoryRing {
  private at: Float64Array;
  private readonly columns = new Map<string, Float32Array>();
  private head = 0;
  private count = 0;
  /** Each kept `keys` array's columns, as of `resized` (a resize replaces every column). */
  private readonly found = new WeakMap<readonly string[], { resized: number; columns: Float32Array[] }>();
  private resized = 0;

  constructor(private capacity: number) {
    this.at = new Float64Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** One sample from plain values, every key of `values` a column. */
  push(at: number, values: Readonly<Record<string, number | null>>): void {
    const keys = Object.keys(values);
    this.pushColumns(at, [keys], Float64Array.from(keys, (k) => values[k] ?? NaN));
  }

  /**
   * One sample: `flat` holds the values of each `groups` array's keys in turn (NaN: not known). A caller that
   * writes the same columns every second keeps its key arrays, and the ring finds their columns once for it, not
   * by key at every sample. Columns no group writes (a node gone) get a gap.
   */
  pushColumns(at: number, groups: ReadonlyArray<readonly string[]>, flat: ArrayLike<number>): void {
    const slot = (this.head + this.count) % this.capacity;
    this.at[slot] = at;
    let written = 0;
    for (const keys of groups) {
      const columns = this.columnsOf(keys);
      for (let i = 0; i < columns.length; i++) (columns[i] as Float32Array)[slot] = flat[written + i] as number;
      written += columns.length;
    }
    // Only a sample that lacks a column (a node gone) has gaps to mark.
    if (written < this.columns.size) {
      const wrote = new Set(groups.flat());
      for (const [key, col] of this.columns) if (!wrote.has(key)) col[slot] = NaN;
    }
    if (this.count < this.capacity) this.count += 1;
    else this.head = (this.head + 1) % this.capacity;
  }

  private columnsOf(keys: readonly string[]): Float32Array[] {
    const known = this.found.get(keys);
    if (known?.resized === this.resized) return known.columns;
    const columns = keys.map((key) => this.column(key));
    this.found.set(keys, { resized: this.resized, columns });
    return columns;
  }

  keys(): string[] {
    return [...this.columns.keys()];
  }

  /** Positions (0 = oldest) whose time is within [from, to]. */
  range(from: number, to: number): { start: number; end: number } {
    let start = 0;
    while (start < this.count && this.timeAt(start) < from) start += 1;
    let end = start;
    while (end < this.count && this.timeAt(end) <= to) end += 1;
    return { start, end };
  }

  timeAt(i: number): number {
    return this.at[(this.head + i) % this.capacity] ?? NaN;
  }

  valueAt(key: string, i: number): number | null {
    const col = this.columns.get(key);
    const v = col ? col[(this.head + i) % this.capacity] : undefined;
    return v === undefined || Number.isNaN(v) ? null : v;
  }

  /** Keeps the newest samples that fit the new capacity. */
  resize(capacity: number): void {
    const keep = Math.min(this.count, capacity);
    const first = this.count - keep;
    const at = new Float64Array(capacity);
    for (let i = 0; i < keep; i++) at[i] = this.timeAt(first + i);
    for (const [key, old] of this.columns) {
      const col = new Float32Array(capacity).fill(NaN);
      for (let i = 0; i < keep; i++) col[i] = old[(this.head + first + i) % this.capacity] ?? NaN;
      this.columns.set(key, col);
    }
    this.at = at;
    this.capacity = capacity;
    this.head = 0;
    this.count = keep;
    this.resized += 1;
  }

  private column(key: string): Float32Array {
    let col = this.columns.get(key);
    if (!col) {
      col = new Float32Array(this.capacity).fill(NaN);
      this.columns.set(key, col);
    }
    return col;
  }
}
