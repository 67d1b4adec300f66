import type { Bottleneck, Run, RunFigure } from '../../contract/schemas/runs.js';
import { RUN_FIGURES } from '../../contract/page-safe/vocabulary.js';
import { INSIDE_FIGURES, type InsideFigure, type InsideValues } from '../ndbinfo/inside-history.js';
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

/**
 * One stretch's bottleneck evidence as its ticks go by: sums of the inside figures over its steady ticks (a tick is
 * steady once the next one is in), and, while none was steady, the ticks near the peak so far (what the verdict
 * reads of a stretch that never held steady). The same rules as `bottleneckOf`, so the means are the ones it reads.
 */
export class SliceSums {
  private readonly last: Kept[] = [];
  private readonly steady: Sums = new Map();
  private steadyTicks = 0;
  private peak = 0;
  private nearPeak: Kept[] = [];

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
    const v = tick.throughput ?? 0;
    if (v > this.peak) {
      this.peak = v;
      this.nearPeak = this.nearPeak.filter((k) => (k.throughput ?? 0) >= v * NEAR_PEAK);
    }
    if (this.peak > 0 && v >= this.peak * NEAR_PEAK) this.nearPeak.push(tick);
  }

  /** The means over `times`: the steady ticks, else the ticks near the peak. */
  meansAt(times: readonly number[]): Means {
    if (this.steadyTicks > 0) return meansOf(this.steady);
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

/** One run summarised as it streams by: its cluster series (what the report shows), per-node sums, per-stretch evidence. */
class StreamedRun implements RunSource {
  private readonly series: RunColumns = { at: [], cluster: Object.fromEntries(RUN_FIGURES.map((f) => [f, []])) as unknown as RunColumns['cluster'] };
  private readonly transactions = new Map<number, { sum: number; n: number }>();
  readonly whole = new SliceSums();
  readonly phases: SliceSums[] = [];

  constructor(private readonly insideKnown: () => boolean) {}

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
      if (tick.at >= p.start && (p.end === null || tick.at < p.end || (tick.at === p.end && p.end === run.end))) (this.phases[i] ??= new SliceSums()).add(k);
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
    const sums = phase === null ? this.whole : (this.phases[phase] ?? new SliceSums());
    return bottleneckFrom(at, throughput, this.insideKnown(), (times) => sums.meansAt(times));
  }

  get heldTicks(): number {
    return this.whole.heldTicks + this.phases.reduce((n, p) => n + (p?.heldTicks ?? 0), 0);
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
  ) {}

  tick(tick: StreamTick): void {
    if (this.pending) this.place(this.pending);
    this.pending = tick;
  }

  /** The run's figures so far (its last tick placed now: a report is read once the replay is over). */
  source(run: Run): RunSource {
    if (this.pending) this.place(this.pending);
    this.pending = null;
    return this.runs.get(run.id) ?? new StreamedRun(this.insideKnown);
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
      if (!streamed) this.runs.set(run.id, (streamed = new StreamedRun(this.insideKnown)));
      streamed.add(run, tick, k);
    }
  }
}
