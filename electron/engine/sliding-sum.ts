/**
 * Sums of vectors received over a sliding time window, kept incrementally: every statistics report is added
 * once and subtracted once, so a 255-node cluster's hundreds of reports a second cost O(1) each.
 */
export class SlidingSum {
  private readonly entries: Array<{ at: number; values: readonly number[] }> = [];
  private head = 0;
  readonly totals: number[];

  constructor(
    width: number,
    readonly windowMs: number,
  ) {
    this.totals = new Array<number>(width).fill(0);
  }

  add(at: number, values: readonly number[]): void {
    this.entries.push({ at, values });
    values.forEach((v, i) => (this.totals[i] = (this.totals[i] ?? 0) + v));
  }

  /** Drops what fell out of (now - windowMs, now]. */
  expire(now: number): void {
    const cutoff = now - this.windowMs;
    while (this.head < this.entries.length && (this.entries[this.head]?.at ?? Infinity) <= cutoff) {
      const old = this.entries[this.head];
      this.head += 1;
      old?.values.forEach((v, i) => (this.totals[i] = (this.totals[i] ?? 0) - v));
    }
    // Compact now and then instead of shifting on every expiry.
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries.splice(0, this.head);
      this.head = 0;
    }
    if (this.head === this.entries.length) this.totals.fill(0);
  }
}
