import type { Bottleneck, Run, RunFigure } from '../../../contract/schemas/runs.js';
import { RUN_FIGURES } from '../../../contract/page-safe/vocabulary.js';
import { INSIDE_FIGURES, type InsideFigure, type InsideValues } from '../../facts/ndbinfo/inside-history.js';
import { bottleneckFrom, NEAR_PEAK, steadyIndices, type Means } from './bottleneck.js';
import type { RunColumns, RunSource } from './run-summary.js';

/** One history tick, as a run summary reads it. */
export interface StreamTick {
  at: number;
  cluster: Partial<Record<RunFigure, number | null>>;
  /** Each data node's transactions/s. */
  transactions: ReadonlyMap<number, number | null>;
  inside: ReadonlyMap<number, InsideValues>;
}

/** What the history's rings give back for a value (Float32, NaN as null), so both sources read the same numbers. */
const kept = (v: number | null | undefined): number | null => (v === null || v === undefined || Number.isNaN(v) ? null : Math.fround(v));

interface Kept {
  at: number;
  throughput: number | null;
  inside: Map<number, Partial<Record<InsideFigure, number | null>>>;
}

type Sums = Map<number, Partial<Record<InsideFigure, { sum: number; n: number }>>>;

function addTo(sums: Sums, inside: Kept['inside']): void {
  for (const [id, values] of inside) {
    let node = sums.get(id);
    if (!node) sums.set(id, (node = {}));
    for (const f of INSIDE_FIGURES) {
      const v = values[f];
      if (v === null || v === undefined || !Number.isFinite(v)) continue;
      const s = (node[f] ??= { sum: 0, n: 0 });
      s.sum += v;
      s.n += 1;
    }
  }
}

function meansOf(sums: Sums): Means {
  const out: Means = new Map();
  for (const id of [...sums.keys()].sort((a, b) => a - b)) {
    const means: Partial<Record<InsideFigure, number>> = {};
    for (const f of INSIDE_FIGURES) {
      const s = sums.get(id)?.[f];
      if (s && s.n > 0) means[f] = s.sum / s.n;
    }
    if (Object.keys(means).length > 0) out.set(id, means);
  }
  return out;
}

/** Ticks near the peak a stretch that never held steady keeps; past that, a second play picks them (`RunPicks`). */
export const NEAR_PEAK_HELD = 300;

/**
 * One stretch's bottleneck evidence as its ticks go by: sums of the inside figures over its steady ticks (a tick is
 * steady once the next one is in), and, while none was steady, the ticks near the peak so far (what the verdict
 * reads of a stretch that never held steady), up to `held` of them. The same rules as `bottleneckOf`, so the means
 * are the ones it reads. Given `picks` (a second play's), it adds up the figures at those ticks instead.
 */
export class SliceSums {
  private readonly last: Kept[] = [];
  private readonly steady: Sums = new Map();
  private steadyTicks = 0;
  private peak = 0;
  private nearPeak: Kept[] = [];
  private overflowed = false;
  private readonly picked: Sums = new Map();

  constructor(
    private readonly held: number,
    private readonly picks?: ReadonlySet<number>,
  ) {}

  add(tick: Kept): void {
    this.last.push(tick);
    if (this.last.length > 3) this.last.shift();
    const middle = this.last[1];
    if (this.last.length === 3 && middle && steadyIndices(this.last.map((k) => k.throughput)).length > 0) {
      addTo(this.steady, middle.inside);
      this.steadyTicks += 1;
      this.nearPeak = [];
    }
    if (this.steadyTicks > 0) return;
    if (this.picks) {
      if (this.picks.has(tick.at)) addTo(this.picked, tick.inside);
      return;
    }
    const v = tick.throughput ?? 0;
    if (v > this.peak) {
      this.peak = v;
      this.nearPeak = this.nearPeak.filter((k) => (k.throughput ?? 0) >= v * NEAR_PEAK);
    }
    if (this.overflowed || this.peak <= 0 || v < this.peak * NEAR_PEAK) return;
    this.nearPeak.push(tick);
    if (this.nearPeak.length <= this.held) return;
    this.overflowed = true;
    this.nearPeak = [];
  }

  /** It never held steady and kept too many ticks near the peak to keep them: a second play must pick them. */
  get unresolved(): boolean {
    return this.steadyTicks === 0 && this.overflowed;
  }

  /** The means over `times`: the steady ticks, else the ticks near the peak (or picked). */
  meansAt(times: readonly number[]): Means {
    if (this.steadyTicks > 0) return meansOf(this.steady);
    if (this.picks) return meansOf(this.picked);
    const wanted = new Set(times);
    const sums: Sums = new Map();
    for (const k of this.nearPeak) if (wanted.has(k.at)) addTo(sums, k.inside);
    return meansOf(sums);
  }

  /** Ticks whose every node's figures are held (the rest is one sum per node and figure). */
  get heldTicks(): number {
    return this.last.length + this.nearPeak.length;
  }
}

/** A stretch of a run: the whole run, or its phase by index. */
export type Stretch = 'run' | number;

/** Per cluster, run and stretch (`pickKey`), the ticks whose inside figures a second play adds up. */
export type RunPicks = ReadonlyMap<string, ReadonlySet<number>>;
export const pickKey = (clusterId: string, runId: string, stretch: Stretch): string => `${clusterId}\u0000${runId}\u0000${stretch}`;

export interface RunStreamOptions {
  /** What a first play could not hold (`RunStream.unresolved`). */
  picks?: RunPicks;
  /** Default NEAR_PEAK_HELD (tests make it small). */
  nearPeakHeld?: number;
}

/** One run summarised as it streams by: its cluster series (what the report shows), per-node sums, per-stretch evidence. */
class StreamedRun implements RunSource {
  private readonly series: RunColumns = { at: [], cluster: Object.fromEntries(RUN_FIGURES.map((f) => [f, []])) as unknown as RunColumns['cluster'] };
  private readonly transactions = new Map<number, { sum: number; n: number }>();
  readonly whole: SliceSums;
  readonly phases: SliceSums[] = [];

  constructor(
    private readonly insideKnown: () => boolean,
    private readonly stretch: (s: Stretch) => SliceSums,
  ) {
    this.whole = stretch('run');
  }

  add(run: Run, tick: StreamTick, k: Kept): void {
    this.series.at.push(tick.at);
    for (const f of RUN_FIGURES) this.series.cluster[f].push(kept(tick.cluster[f]));
    for (const [id, value] of tick.transactions) {
      const v = kept(value);
      const s = this.transactions.get(id) ?? { sum: 0, n: 0 };
      this.transactions.set(id, s);
      if (v === null || !Number.isFinite(v)) continue;
      s.sum += v;
      s.n += 1;
    }
    this.whole.add(k);
    run.phases.forEach((p, i) => {
      // Half-open as the summary slices them; the last phase keeps the run's end.
      if (tick.at >= p.start && (p.end === null || tick.at < p.end || (tick.at === p.end && p.end === run.end))) (this.phases[i] ??= this.stretch(i)).add(k);
    });
  }

  columns(from: number, to: number): RunColumns {
    const keep = this.series.at.map((t) => t >= from && t <= to);
    const pick = <T>(values: T[]): T[] => values.filter((_, i) => keep[i]);
    return { at: pick(this.series.at), cluster: Object.fromEntries(RUN_FIGURES.map((f) => [f, pick(this.series.cluster[f])])) as RunColumns['cluster'] };
  }

  /** Over the run's own ticks, whatever is asked (the summary asks for the whole run). */
  nodeMeans(_from: number, _to: number, nodeIds: readonly number[]): Map<number, number | null> {
    return new Map(nodeIds.map((id) => {
      const s = this.transactions.get(id);
      return [id, s && s.n > 0 ? s.sum / s.n : null];
    }));
  }

  bottleneck(phase: number | null, _from: number, _to: number, at: readonly number[], throughput: readonly (number | null)[]): Bottleneck {
    const sums = phase === null ? this.whole : (this.phases[phase] ?? this.stretch(phase));
    return bottleneckFrom(at, throughput, this.insideKnown(), (times) => sums.meansAt(times));
  }

  /** The stretches that never held steady and held too many ticks near their peak, with those ticks' times. */
  unresolved(run: Run): Array<{ stretch: Stretch; times: number[] }> {
    const { at, cluster } = this.series;
    const inStretch = (stretch: Stretch, t: number): boolean => {
      const p = stretch === 'run' ? undefined : run.phases[stretch];
      return p === undefined || (t >= p.start && (p.end === null || t < p.end || (t === p.end && p.end === run.end)));
    };
    // A phase without a tick has no sums: `phases` has holes.
    const stretches: Stretch[] = [this.whole, ...Array.from(this.phases)].flatMap((sums, i) => (sums?.unresolved ? [i === 0 ? 'run' : i - 1] : []));
    return stretches.map((stretch) => {
      const ticks = at.map((t, i) => ({ t, v: cluster.transactions[i] ?? null })).filter((x) => inStretch(stretch, x.t));
      // As the verdict reads a stretch that never held steady: its ticks within 20 % of its peak.
      const peak = ticks.reduce((max, x) => Math.max(max, x.v ?? 0), 0);
      return { stretch, times: ticks.filter((x) => peak > 0 && (x.v ?? 0) >= peak * NEAR_PEAK).map((x) => x.t) };
    });
  }

  get heldTicks(): number {
    return this.whole.heldTicks + Array.from(this.phases).reduce((n, p) => n + (p?.heldTicks ?? 0), 0);
  }

  get seriesTicks(): number {
    return this.series.at.length;
  }
}

/**
 * Run summaries computed as the ticks go by, for a report's replay: the history then needs to hold only what the
 * collapse alert looks back at, not a whole run, so memory does not grow with the run's length but for the
 * cluster's own series (which the report carries). A tick is placed one tick late, once every mark at its time
 * (a run's stop, a phase's start) has been applied.
 */
export class RunStream {
  private pending: StreamTick | null = null;
  private readonly runs = new Map<string, StreamedRun>();

  constructor(
    private readonly covering: (t: number) => Run[],
    private readonly insideKnown: () => boolean,
    private readonly clusterId = '',
    private readonly options: RunStreamOptions = {},
  ) {}

  /** Per run and stretch, the ticks a second play must pick (none: every summary is complete). */
  unresolved(runs: readonly Run[]): Map<string, Set<number>> {
    const out = new Map<string, Set<number>>();
    for (const run of runs) for (const u of this.runs.get(run.id)?.unresolved(run) ?? []) out.set(pickKey(this.clusterId, run.id, u.stretch), new Set(u.times));
    return out;
  }

  tick(tick: StreamTick): void {
    if (this.pending) this.place(this.pending);
    this.pending = tick;
  }

  /** The run's figures so far (its last tick placed now: a report is read once the replay is over). */
  source(run: Run): RunSource {
    if (this.pending) this.place(this.pending);
    this.pending = null;
    return this.runs.get(run.id) ?? this.streamed(run.id);
  }

  /** What is held per tick: the cluster series' ticks, and ticks whose every node's figures are held. */
  retained(): { seriesTicks: number; heldTicks: number } {
    let seriesTicks = 0;
    let heldTicks = 0;
    for (const r of this.runs.values()) {
      seriesTicks += r.seriesTicks;
      heldTicks += r.heldTicks;
    }
    return { seriesTicks, heldTicks };
  }

  private place(tick: StreamTick): void {
    const runs = this.covering(tick.at);
    if (runs.length === 0) return;
    const k: Kept = { at: tick.at, throughput: kept(tick.cluster.transactions), inside: new Map([...tick.inside].map(([id, v]) => [id, Object.fromEntries(INSIDE_FIGURES.map((f) => [f, kept(v[f])]))])) };
    for (const run of runs) {
      let streamed = this.runs.get(run.id);
      if (!streamed) this.runs.set(run.id, (streamed = this.streamed(run.id)));
      streamed.add(run, tick, k);
    }
  }

  private streamed(runId: string): StreamedRun {
    const held = this.options.nearPeakHeld ?? NEAR_PEAK_HELD;
    return new StreamedRun(this.insideKnown, (s) => new SliceSums(held, this.options.picks?.get(pickKey(this.clusterId, runId, s))));
  }
}
