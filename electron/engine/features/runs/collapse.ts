/** When the detector calls throughput a collapse; both are settings of the engine (`--collapse-drop`, `--collapse-window`). */
export interface CollapseConfig {
  /** Share of throughput lost, 0..1: 0.5 = it fell by more than half. */
  dropShare: number;
  /** Within how long the fall happened. */
  windowMs: number;
}

export const DEFAULT_COLLAPSE: CollapseConfig = { dropShare: 0.5, windowMs: 10_000 };

/** Before the window the workload must have been steady this long: every sample within ±30 % of their median. */
const STEADY_SPREAD = 0.3;
/** Below this many transactions/s the cluster is idle, and an idle cluster cannot collapse. */
const MIN_RATE = 10;
/** A fall must show in two samples running, so one late report does not raise an alert. */
const CONFIRM_SAMPLES = 2;

/** What says work is still being offered: operations in flight (the TC reports' gauge) and connected API nodes. */
export interface OfferedLoad {
  concurrentOps: number | null;
  apiNodes: number;
}

export interface Collapse {
  at: number;
  /** Median throughput of the steady stretch before the window. */
  before: number;
  after: number;
  /** The window the fall happened in. */
  from: number;
}

/**
 * Watches cluster throughput, one sample a second: a collapse is a fall by more than `dropShare` within `windowMs`
 * after a steady stretch of the same length, while work is still being offered. Marks (a run's start, stop or
 * phase change) within the stretch or the window explain the fall: the script changed the load on purpose. So does
 * the load going away: API nodes disconnecting, or the operations in flight falling with the throughput (clients
 * that stop sending; in a collapse they keep their operations in flight, each just takes longer); and until the
 * stretch lies wholly after the load went away, it is no yardstick for the load that comes back. After a collapse
 * it stays quiet until the stretch before the window no longer contains the level it fell from.
 */
export class CollapseDetector {
  private samples: Array<{ at: number; v: number; offered: OfferedLoad | null }> = [];
  private marks: number[] = [];
  private below = 0;
  private quietUntil = -Infinity;
  /** The latest sample at which throughput was down because the load had gone away (see `sample`). */
  private loadLeftAt = -Infinity;

  constructor(private config: CollapseConfig = DEFAULT_COLLAPSE) {}

  configure(config: CollapseConfig): void {
    this.config = config;
  }

  mark(at: number): void {
    this.marks.push(at);
  }

  sample(at: number, value: number | null, offered: OfferedLoad | null = null): Collapse | null {
    const { windowMs, dropShare } = this.config;
    const horizon = at - 2 * windowMs;
    this.samples = this.samples.filter((s) => s.at >= horizon);
    this.marks = this.marks.filter((m) => m >= horizon);
    if (value === null) return null;
    this.samples.push({ at, v: value, offered });
    const stretch = this.samples.filter((s) => s.at <= at - windowMs);
    const level = median(stretch.map((s) => s.v));
    const before = level !== null && isSteady(stretch.map((s) => s.v), level, windowMs) ? level : null;
    const down = level !== null && level >= MIN_RATE && value < level * (1 - dropShare);
    this.below = down && before !== null ? this.below + 1 : 0;
    // The load went away: until the stretch before the window lies wholly after that, it holds a level the
    // clients stopped offering, and the next run's ramp-up (operations in flight come back at once, reported
    // throughput only as the report periods fill) would read as a collapse against it.
    if (down && loadWentAway(stretch, level, value, offered)) this.loadLeftAt = at;
    if (before === null || this.below < CONFIRM_SAMPLES || at < this.quietUntil || this.marks.length > 0) return null;
    if (this.loadLeftAt >= horizon) return null;
    this.quietUntil = at + 2 * windowMs;
    this.below = 0;
    return { at, before, after: value, from: at - windowMs };
  }
}

/**
 * The load itself fell: fewer API nodes connected than at any time in the steady stretch, or the operations in
 * flight fell at least half as far as the throughput did (a ramp-down takes both down together). Without the gauge
 * (no reports carry it) only the API nodes can tell.
 */
function loadWentAway(stretch: ReadonlyArray<{ offered: OfferedLoad | null }>, before: number, after: number, now: OfferedLoad | null): boolean {
  if (now === null) return false;
  const earlier = stretch.map((s) => s.offered).filter((o) => o !== null);
  if (earlier.some((o) => o.apiNodes > now.apiNodes)) return true;
  const inFlight = median(earlier.map((o) => o.concurrentOps).filter((c) => c !== null));
  if (inFlight === null || inFlight <= 0 || now.concurrentOps === null) return false;
  const throughputFall = 1 - after / before;
  const inFlightFall = 1 - now.concurrentOps / inFlight;
  return inFlightFall >= throughputFall / 2;
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? null;
}

/** Whether one-second samples cover most of `spanMs` and all lie within ±STEADY_SPREAD of `level`, above idle. */
function isSteady(values: readonly number[], level: number, spanMs: number): boolean {
  if (values.length < Math.max(3, (spanMs / 1000) * 0.6) || level < MIN_RATE) return false;
  return Math.min(...values) >= level * (1 - STEADY_SPREAD) && Math.max(...values) <= level * (1 + STEADY_SPREAD);
}
