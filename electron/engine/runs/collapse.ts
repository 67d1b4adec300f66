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
 * after a steady stretch of the same length. Marks (a run's start, stop or phase change) within the stretch or
 * the window explain the fall: the script changed the load on purpose, so nothing is raised. After a collapse it
 * stays quiet until the stretch before the window no longer contains the level it fell from.
 */
export class CollapseDetector {
  private samples: Array<{ at: number; v: number }> = [];
  private marks: number[] = [];
  private below = 0;
  private quietUntil = -Infinity;

  constructor(private config: CollapseConfig = DEFAULT_COLLAPSE) {}

  configure(config: CollapseConfig): void {
    this.config = config;
  }

  mark(at: number): void {
    this.marks.push(at);
  }

  sample(at: number, value: number | null): Collapse | null {
    const { windowMs, dropShare } = this.config;
    const horizon = at - 2 * windowMs;
    this.samples = this.samples.filter((s) => s.at >= horizon);
    this.marks = this.marks.filter((m) => m >= horizon);
    if (value === null) return null;
    this.samples.push({ at, v: value });
    const reference = this.samples.filter((s) => s.at <= at - windowMs).map((s) => s.v);
    const before = steadyLevel(reference, windowMs);
    const threshold = before === null ? null : before * (1 - dropShare);
    this.below = threshold !== null && value < threshold ? this.below + 1 : 0;
    if (before === null || this.below < CONFIRM_SAMPLES || at < this.quietUntil || this.marks.length > 0) return null;
    this.quietUntil = at + 2 * windowMs;
    this.below = 0;
    return { at, before, after: value, from: at - windowMs };
  }
}

/** The median of a steady stretch covering most of `spanMs` of one-second samples; null if not steady or idle. */
function steadyLevel(values: readonly number[], spanMs: number): number | null {
  if (values.length < Math.max(3, (spanMs / 1000) * 0.6)) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  if (median < MIN_RATE) return null;
  const steady = (sorted[0] ?? 0) >= median * (1 - STEADY_SPREAD) && (sorted.at(-1) ?? 0) <= median * (1 + STEADY_SPREAD);
  return steady ? median : null;
}
