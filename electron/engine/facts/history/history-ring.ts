/**
 * Columns of samples sharing one time axis, in fixed-size ring buffers: an hour at one sample a second for a
 * large cluster stays a few flat typed arrays. A value that was not known is NaN here and null outside.
 */
export class HistoryRing {
  private at: Float64Array;
  private readonly columns = new Map<string, Float32Array>();
  private head = 0;
  private count = 0;

  constructor(private capacity: number) {
    this.at = new Float64Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  /**
   * `keys`: those of `values`, when the caller has them: a sample of 144 data nodes has ~1,600, and walking such an
   * object's own keys (for…in) was most of the second's sample.
   */
  push(at: number, values: Readonly<Record<string, number | null>>, keys: readonly string[] = Object.keys(values)): void {
    const slot = (this.head + this.count) % this.capacity;
    this.at[slot] = at;
    let written = 0;
    for (const key of keys) {
      this.column(key)[slot] = values[key] ?? NaN;
      written++;
    }
    // Only a sample that lacks a column (a node gone) has gaps to mark.
    if (written < this.columns.size) for (const [key, col] of this.columns) if (!(key in values)) col[slot] = NaN;
    if (this.count < this.capacity) this.count += 1;
    else this.head = (this.head + 1) % this.capacity;
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
