/**
 * The monitor's load on the SQL node as a budget: the share of wall time its queries keep the SQL node busy, over
 * a sliding window. Over the share, every interval is stretched (× 2, up to MAX_STRETCH); still over at the
 * longest stretch, the non-essential readings are shed (only thread CPU and restart progress go on). Well under
 * the share (a quarter of it), it relaxes one step per window. Pure: times come from the caller.
 */
export interface BudgetOptions {
  /** Share of wall time the queries may take (0.1: 100 ms per second). */
  share: number;
  /** The window the share is measured over, and the least time between two adjustments. */
  windowMs: number;
}

export const DEFAULT_BUDGET: BudgetOptions = { share: 0.1, windowMs: 10_000 };
export const MAX_STRETCH = 16;

export interface BudgetState {
  /** Share of the last window the SQL node spent on our queries. */
  load: number;
  share: number;
  /** Every reading's interval is multiplied by this. */
  stretch: number;
  /** Non-essential readings paused. */
  shedding: boolean;
}

export class LoadBudget {
  private readonly spans: Array<{ end: number; ms: number }> = [];
  private stretchNow = 1;
  private shed = false;
  private lastChange: number;

  constructor(
    private readonly options: BudgetOptions = DEFAULT_BUDGET,
    start = 0,
  ) {
    this.lastChange = start;
  }

  /** A query that ended at `end` took `ms` on the SQL node; adjusts the stretch at most once per window. */
  record(end: number, ms: number): void {
    this.spans.push({ end, ms });
    const load = this.load(end);
    if (end - this.lastChange < this.options.windowMs) return;
    if (load > this.options.share) {
      if (this.stretchNow < MAX_STRETCH) this.stretchNow *= 2;
      else this.shed = true;
      this.lastChange = end;
    } else if (load < this.options.share / 4 && (this.shed || this.stretchNow > 1)) {
      if (this.shed) this.shed = false;
      else this.stretchNow /= 2;
      this.lastChange = end;
    }
  }

  private load(now: number): number {
    const from = now - this.options.windowMs;
    while (this.spans.length > 0 && (this.spans[0]?.end ?? 0) <= from) this.spans.shift();
    return this.spans.reduce((sum, s) => sum + s.ms, 0) / this.options.windowMs;
  }

  state(now: number): BudgetState {
    return { load: this.load(now), share: this.options.share, stretch: this.stretchNow, shedding: this.shed };
  }

  get stretch(): number {
    return this.stretchNow;
  }

  get shedding(): boolean {
    return this.shed;
  }
}
