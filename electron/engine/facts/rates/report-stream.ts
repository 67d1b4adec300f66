/** The DBTC/DBLQH report period (spec §7.1): each instance reports once per period, whatever the machine's load. */
export const REPORT_PERIOD_MS = 5000;
/** How far back arrivals are kept to count a node's instances: long enough that late or bunched edges round away. */
const HORIZON_MS = 120_000;
/** Kept a period longer than the horizon, so a full horizon of whole periods is always there to count. */
const KEEP_MS = HORIZON_MS + REPORT_PERIOD_MS;
const ESTIMATE_HYSTERESIS = 0.6;
/**
 * Reports whose values are kept: the rates need only the newest one per instance. The two-minute count needs
 * arrival times only, which matters where reports come far faster than one per instance per 5 s (a replay or a
 * simulator at speed 144 sends ~3,600 per instance in the horizon: kept whole, they were tens of MB and their
 * copying most of the engine's CPU at 255 nodes).
 */
const MIN_VALUES_KEPT = 64;

interface Report {
  at: number;
  values: readonly number[];
}

/** Element by element: a generic deep compare walks an array's indices as string keys, ~230 times a second when idle. */
export function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export interface StreamRates {
  /** Per second for delta fields; summed over instances for gauge fields. */
  values: number[];
  instances: number;
}

/**
 * One node's reports of one kind (TC or LQH). Reports carry no instance field (spec §7.3), but each covers one
 * period of one instance, so the node's rate is instances × the mean of the latest reports ÷ the period. That
 * mean is what a report says, not when it arrived: late, bunched, shuffled or missing reports leave it within
 * the true range, where a sliding window over arrival times would double or zero it. The instance count is the
 * configuration's where it decides it (`configure`); else it is read from how many reports arrive per period over
 * the last two minutes, which a starved sender's late, bunched catch-up or a simulator's speed-up moves.
 */
export class ReportStream {
  /** Arrival times within KEEP_MS, oldest first, from index `first` on (dropped in bulk, not one copy per add). */
  private arrivals: number[] = [];
  private first = 0;
  /** The newest reports, within KEEP_MS too, from index `kept` on (dropped in bulk, like the arrivals). */
  private reports: Report[] = [];
  private kept = 0;
  /** The instance count read from arrivals: a node's thread configuration only changes with a restart (which clears it). */
  private estimate = 0;
  /** The instance count the configuration decides; while set, arrivals are not counted. */
  private configured: number | null = null;
  /** `rates()` as of the last change: read again for every report to tell whether the report moved them. */
  private latest: StreamRates | null | undefined;

  constructor(private readonly gauges: ReadonlySet<number>) {}

  /**
   * A re-delivered duplicate is kept on purpose: it says the same as the original, so the mean does not move,
   * while dropping "duplicates" would drop real reports of two idle instances that both said zero.
   */
  add(at: number, values: readonly number[]): void {
    const instances = this.instances();
    const reports = this.reports;
    // The report this one pushes out of the mean of the newest `instances`.
    const leaving = reports.length - this.kept >= instances ? reports[reports.length - instances] : undefined;
    const cutoff = at - KEEP_MS;
    reports.push({ at, values });
    const keep = Math.max(MIN_VALUES_KEPT, instances);
    let keepFrom = this.kept;
    while (keepFrom < reports.length && (reports[keepFrom] as Report).at <= cutoff) keepFrom++;
    if (keepFrom > this.kept || reports.length - this.kept > 2 * keep) this.kept = Math.max(keepFrom, reports.length - keep);
    // Dead reports hold their values: compacted once they outnumber the live (at most 64 or so), not after 1,024 of
    // them per stream (a 144-node soak sawed 20–35 MB over a minute or two, read as +14.7 % in 10 minutes).
    if (this.kept > MIN_VALUES_KEPT && this.kept * 2 > reports.length) {
      this.reports = reports.slice(this.kept);
      this.kept = 0;
    }
    if (this.configured === null) this.countArrival(at, cutoff);
    // Counts are integers, so their sums are exact in any order: the same count of instances, and the report pushed
    // out saying what this one says (an idle instance's zeros, period after period), leave the mean as it was.
    const same = leaving !== undefined && this.instances() === instances && this.reports.length - this.kept >= instances && sameNumbers(leaving.values, values);
    if (!same) this.latest = undefined;
  }

  /** Only arrival times are kept for the count (see MIN_VALUES_KEPT). */
  private countArrival(at: number, cutoff: number): void {
    this.arrivals.push(at);
    while (this.first < this.arrivals.length && (this.arrivals[this.first] ?? 0) <= cutoff) this.first += 1;
    if (this.first > 1024 && this.first * 2 > this.arrivals.length) {
      this.arrivals = this.arrivals.slice(this.first);
      this.first = 0;
    }
    const counted = this.countInstances();
    // Hysteresis: a ratio a bunch or a duplicate pushed just past x.5 does not flip the count back and forth.
    if (this.estimate === 0 || Math.abs(counted - this.estimate) > ESTIMATE_HYSTERESIS) this.estimate = Math.max(1, Math.round(counted));
  }

  /** The count the node's configuration decides, or null to count arrivals. */
  configure(instances: number | null): void {
    this.configured = instances;
    this.latest = undefined;
  }

  /** A restarted node's instances start new periods: what came before says nothing about them. */
  clear(): void {
    this.arrivals = [];
    this.first = 0;
    this.reports = [];
    this.kept = 0;
    this.estimate = 0;
    this.latest = undefined;
  }

  /** Instances of this kind on the node: configured, else as counted so far. */
  instances(): number {
    return this.configured ?? Math.max(1, this.estimate);
  }

  /**
   * Instances of this kind on the node. Any window of whole periods ending now holds exactly one report per
   * instance per period, whatever the instances' phases, so count over the longest such window seen; late edges,
   * losses and duplicates then shift the count by a fraction that rounds away. Within the first period, every
   * report is a different instance.
   */
  private countInstances(): number {
    const n = this.arrivals.length;
    const last = this.arrivals[n - 1];
    const first = this.arrivals[this.first];
    if (last === undefined || first === undefined) return 1;
    const periods = Math.min(HORIZON_MS / REPORT_PERIOD_MS, Math.floor((last - first) / REPORT_PERIOD_MS));
    if (periods === 0) return n - this.first;
    const from = last - periods * REPORT_PERIOD_MS;
    let count = 0;
    for (let i = n - 1; i >= this.first && (this.arrivals[i] ?? 0) > from; i--) count += 1;
    return count / periods;
  }

  /** The same object until the next report or configuration: callers must not change it. */
  rates(): StreamRates | null {
    if (this.latest === undefined) this.latest = this.compute();
    return this.latest;
  }

  private compute(): StreamRates | null {
    const last = this.reports[this.reports.length - 1];
    if (!last || this.reports.length === this.kept) return null;
    const instances = this.instances();
    const from = Math.max(this.kept, this.reports.length - instances);
    const scale = instances / (this.reports.length - from);
    const values = new Array<number>(last.values.length).fill(0);
    for (let r = from; r < this.reports.length; r++) {
      const reported = (this.reports[r] as Report).values;
      for (let i = 0; i < values.length; i++) values[i] = (values[i] as number) + (reported[i] ?? 0);
    }
    for (let i = 0; i < values.length; i++) values[i] = this.gauges.has(i) ? (values[i] as number) * scale : ((values[i] as number) * scale * 1000) / REPORT_PERIOD_MS;
    return { instances, values };
  }
}
