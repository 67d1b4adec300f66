/**
 * Per-second rates of ndbinfo counters that only grow (bytes sent, pages read, slowdowns …) from two readings.
 * The rule is the statistics totals' (electron/engine/facts/counters/statistics-totals.ts): a value that did not grow
 * by a finite, non-negative amount is not a delta and must not bend anything. Here that is a data node that
 * restarted (its counters begin at zero again): no rate for that interval, and the new value is the next
 * baseline, so a restart never shows as a negative or a huge spike.
 */
export class CounterRates {
  private readonly last = new Map<string, { value: number; at: number }>();

  /** The rate of `key` per second between its previous value and `value` at `at` (ms); null when there is none. */
  rate(key: string, value: number, at: number): number | null {
    const prev = this.last.get(key);
    this.last.set(key, { value, at });
    if (!prev || !(at > prev.at)) return null;
    const delta = value - prev.value;
    if (!Number.isFinite(delta) || delta < 0) return null;
    return (delta * 1000) / (at - prev.at);
  }
}
