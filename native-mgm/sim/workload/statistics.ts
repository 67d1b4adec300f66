import type { BlockInstances } from '../../config/index.js';
import type { ClusterState } from '../state/cluster-state.js';
import { integrate, idleProfile, type LoadProfile, type LoadRates } from './load-profile.js';
import type { DataNode } from '../state/node-state.js';
import { derivePrng, jitter, type Prng } from '../state/prng.js';
import { makeEvent } from '../state/sim-event.js';

/** DBTC and DBLQH report every 5 s of their own timer (spec §7.1). */
export const REPORT_PERIOD_MS = 5000;
const JITTER = 0.04;
/** Share of key reads that are simple (committed) reads, and aborts per transaction. */
export const SIMPLE_READ_SHARE = 0.3;
export const ABORT_SHARE = 0.002;
export const ATTRINFO_PER_OP = 2;
/** Mean time an operation is in flight, for the conc_op_count gauge. */
const OP_LATENCY_S = 0.0004;

/**
 * A whole count whose mean is `mean`, as operations in flight counted at an instant are. Rounded to the nearest
 * instead, 144 data nodes' TC instances (about one operation each at the benchmark's peak) all read 1 from half the
 * peak on: the cluster's gauge said the load was back long before it was.
 */
function wholeCount(mean: number, prng: Prng): number {
  return Math.floor(mean + prng());
}

export interface StatisticsOptions {
  /** A data node's DBTC and DBLQH instances, as the configuration the simulator serves decides them. */
  instances: (nodeId: number) => BlockInstances;
  seed: number;
}

const reporting = (n: DataNode): boolean => n.status === 'STARTING' || n.status === 'STARTED' || n.status === 'SHUTTING_DOWN';

/**
 * Per-instance TransReportCounters and OperationReportCounters (spec §7): every TC and LQH instance of a running
 * node has its own 5 s timer with its own phase, and reports the operations since its previous report. The
 * cluster's load is shared evenly by the STARTED nodes; a STARTING node's timers already run and report zeros.
 */
export class StatisticsEngine {
  private profile: LoadProfile = idleProfile();
  private profileStart = 0;
  /** The profile before the last change: a report whose period spans the change covers part of each. */
  private previous: { profile: LoadProfile; start: number } | null = null;
  private readonly timers = new Map<number, Array<() => void>>();
  /** Per running node: its thread configuration is read when it starts, as a real data node reads it. */
  private readonly running = new Map<number, BlockInstances>();

  constructor(
    private readonly cluster: ClusterState,
    private readonly options: StatisticsOptions,
  ) {
    cluster.onStatusChange((node) => this.follow(node));
    for (const node of cluster.data.values()) this.follow(node);
  }

  setLoad(profile: LoadProfile): void {
    this.previous = { profile: this.profile, start: this.profileStart };
    this.profile = profile;
    this.profileStart = this.cluster.clock.now();
  }

  rates(): LoadRates {
    return this.ratesAt(this.cluster.clock.now());
  }

  /** The cluster's rates at sim time `t`: the profile in force then (the one before the last change, for earlier times). */
  ratesAt(t: number): LoadRates {
    if (t < this.profileStart && this.previous) return this.previous.profile.ratesAt(t - this.previous.start);
    return this.profile.ratesAt(t - this.profileStart);
  }

  /** The load the clients offer now: more than `rates()` only while the cluster cannot keep up with them. */
  private offered(): LoadRates {
    const elapsed = this.cluster.clock.now() - this.profileStart;
    return this.profile.offeredAt?.(elapsed) ?? this.profile.ratesAt(elapsed);
  }

  private follow(node: DataNode): void {
    const running = this.timers.has(node.id);
    if (reporting(node) && !running) this.startTimers(node);
    if (!reporting(node) && running) {
      for (const cancel of this.timers.get(node.id) ?? []) cancel();
      this.timers.delete(node.id);
      this.running.delete(node.id);
    }
  }

  private startTimers(node: DataNode): void {
    const cancels: Array<() => void> = [];
    const { seed } = this.options;
    const instances = this.options.instances(node.id);
    this.running.set(node.id, instances);
    for (let i = 0; i < instances.tc; i++) cancels.push(this.instanceTimer(node, derivePrng(seed, node.id, node.connectCount, 0, i), (p, a, b) => this.tcReport(node, p, a, b)));
    for (let i = 0; i < instances.lqh; i++) cancels.push(this.instanceTimer(node, derivePrng(seed, node.id, node.connectCount, 1, i), (p, a, b) => this.lqhReport(node, p, a, b)));
    this.timers.set(node.id, cancels);
  }

  /** A self-rescheduling timer in sim time; each report covers exactly the sim time since the previous one. */
  private instanceTimer(node: DataNode, prng: Prng, report: (prng: Prng, from: number, to: number) => void): () => void {
    const clock = this.cluster.clock;
    let last = clock.now();
    let cancel = (): void => undefined;
    const arm = (at: number): void => {
      cancel = clock.at(at, () => {
        report(prng, last, at);
        last = at;
        arm(at + REPORT_PERIOD_MS);
      });
    };
    arm(last + prng() * REPORT_PERIOD_MS);
    return () => cancel();
  }

  private instancesOf(node: DataNode): BlockInstances {
    return this.running.get(node.id) ?? this.options.instances(node.id);
  }

  private startedCount(): number {
    return [...this.cluster.data.values()].filter((n) => n.status === 'STARTED').length;
  }

  /**
   * Operations of one kind the cluster handled in [from, to). Each part of the period is integrated under the
   * profile in force then: integrating the new profile over time before it started made counts negative
   * (a benchmark's warmup ramp extrapolated backwards), which a reader of unsigned counters sees as ~4·10⁹.
   * A starved process can run a report's timer after a load change that came later in sim time (Node fires
   * overdue timers of different durations in no fixed order): its period then ends before the change, and
   * integrating the old profile up to the change counted seconds after the period (4× the peak at speed 4).
   */
  private clusterOps(key: keyof LoadRates, from: number, to: number): number {
    const start = this.profileStart;
    const before = this.previous && from < start ? integrate(this.previous.profile, key, from - this.previous.start, Math.min(to, start) - this.previous.start) : 0;
    const after = to > start ? integrate(this.profile, key, Math.max(from, start) - start, to - start) : 0;
    return Math.max(0, before) + Math.max(0, after);
  }

  /** Operations of one kind that one instance of `node` handled in [from, to); never negative. */
  private share(node: DataNode, key: keyof LoadRates, from: number, to: number, instances: number, prng: Prng): number {
    if (node.status !== 'STARTED') return 0;
    return Math.max(0, Math.round((this.clusterOps(key, from, to) / (this.startedCount() * instances)) * jitter(prng, JITTER)));
  }

  private tcReport(node: DataNode, prng: Prng, from: number, to: number): void {
    const n = this.instancesOf(node).tc;
    const trans = this.share(node, 'transPerSec', from, to, n, prng);
    const reads = this.share(node, 'readsPerSec', from, to, n, prng);
    const writes = this.share(node, 'writesPerSec', from, to, n, prng);
    const aborts = Math.round(trans * ABORT_SHARE);
    const now = this.offered();
    const inFlight = node.status === 'STARTED' ? ((now.readsPerSec + now.writesPerSec) * OP_LATENCY_S) / (this.startedCount() * n) : 0;
    this.cluster.emit(
      makeEvent('TransReportCounters', node.id, {
        trans_count: trans,
        commit_count: trans - aborts,
        read_count: reads,
        simple_read_count: Math.round(reads * SIMPLE_READ_SHARE),
        write_count: writes,
        attrinfo_count: (reads + writes) * ATTRINFO_PER_OP,
        conc_op_count: wholeCount(inFlight * jitter(prng, JITTER), prng),
        abort_count: aborts,
        scan_count: this.share(node, 'scansPerSec', from, to, n, prng),
        range_scan_count: this.share(node, 'rangeScansPerSec', from, to, n, prng),
      }),
    );
  }

  /** LQH executes every read once and every write on each replica. */
  private lqhReport(node: DataNode, prng: Prng, from: number, to: number): void {
    const n = this.instancesOf(node).lqh;
    const ops = this.share(node, 'readsPerSec', from, to, n, prng) + this.share(node, 'writesPerSec', from, to, n, prng) * this.cluster.replicas;
    this.cluster.emit(makeEvent('OperationReportCounters', node.id, { ops }));
  }
}
