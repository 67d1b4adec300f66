import type { NodeCounters } from '../../../contract/schemas/counters.js';
import type { MemoryUse, NodeRates, NodeView, Rates } from '../../../contract/schemas/node.js';
import type { ClusterEvent } from '../../../../native-mgm/index.js';
import type { ConfigState } from '../../facts/config/config-state.js';
import { StatisticsTotals } from '../../facts/counters/statistics-totals.js';
import type { MetricValues } from '../../facts/history/history.js';
import { RateTracker, type RateInstances } from '../../facts/rates/rates.js';
import { MemoryTracker } from '../memory.js';
import type { ConnectionInput, TrackerInput } from '../tracker-input.js';
import type { AlertRoom } from './alerts/alert-room.js';
import type { Room, StatusChange } from './room.js';
import { MemoryAlerts } from './alerts/memory-alerts.js';
import type { ViewChanges } from './view-changes.js';

export interface LoadOptions {
  rateInstances: RateInstances;
  memoryAlertHoldMs: number | undefined;
}

/**
 * What the data nodes report about their load: rates and running totals from the statistics reports (both read
 * every report, independently), memory from MemoryUsage records (threshold events and `dump events 50` rounds),
 * and the memory alerts (`MemoryAlerts`).
 */
export class LoadRoom implements Room {
  private readonly rates: RateTracker;
  private readonly totals = new StatisticsTotals();
  private readonly memory = new MemoryTracker();
  private readonly memoryAlerts: MemoryAlerts;
  /** Whether the command link is up and answering: memory refreshes come through it. True until told otherwise. */
  private memoryCurrent = true;
  private streamLive = true;
  /** Each data node's last history figures and what they were made from. */
  private readonly sampled = new Map<number, { rates: NodeRates | null; data: MemoryUse | null; index: MemoryUse | null; values: MetricValues }>();

  constructor(
    private readonly changes: ViewChanges,
    alerts: AlertRoom,
    config: ConfigState,
    options: LoadOptions,
  ) {
    this.rates = new RateTracker(options.rateInstances === 'arrivals' ? undefined : (id) => config.instances(id));
    this.memoryAlerts = new MemoryAlerts(alerts, this.memory, () => config.replicas(), options.memoryAlertHoldMs);
  }

  input(input: TrackerInput): void {
    if (input.kind === 'config') this.rates.configurationRead();
    else if (input.kind === 'memory') this.applyMemoryRound(input.events, input.t);
    else if (input.kind === 'connection') this.sourceChanged(input.connection);
  }

  /** A lost source makes what it last said old at once, not after its figures age out. */
  private sourceChanged(c: ConnectionInput): void {
    const streamLive = c.eventStream.status === 'live';
    if (this.streamLive && !streamLive) this.rates.streamLost();
    this.streamLive = streamLive;
    this.memoryCurrent = c.status === 'live' || c.status === 'failed-over';
  }

  event(e: ClusterEvent): boolean {
    // Totals and rates read the same reports; both must see every one.
    const statistics = this.totals.apply(e);
    const rates = this.rates.apply(e);
    if (rates || statistics) {
      // The running totals are not in the node's view (exporters read them): only new rates change what it shows.
      if (rates?.changed !== false) this.changes.node(e.sourceNodeId);
      return true;
    }
    if (e.name !== 'MemoryUsage') return false;
    this.applyMemory(e, false);
    return true;
  }

  settle(at: number): void {
    this.memoryAlerts.settle(at);
  }

  status({ nodeId, type, previous, status }: StatusChange): void {
    // A (re)starting node's instances begin new report periods: its earlier reports say nothing about them.
    if (type === 'NDB' && previous !== null && status === 'STARTING' && previous !== 'STARTING') this.rates.restarted(nodeId);
  }

  nodeRates(id: number): NodeRates | null {
    return this.rates.node(id);
  }

  isFresh(id: number, now: number): boolean {
    return this.rates.isFresh(id, now);
  }

  total(now: number, dataNodeIds: readonly number[]): Rates | null {
    return this.rates.total(now, dataNodeIds);
  }

  counters(): NodeCounters[] {
    return this.totals.view();
  }

  /** A node not connected shows its figures from when it was last seen: stale, whatever the last refresh said. */
  memoryView(id: number, connected: boolean): NodeView['memory'] {
    const { data, index } = this.memory.node(id);
    if (connected && this.memoryCurrent) return { data, index };
    return { data: data && { ...data, stale: true }, index: index && { ...index, stale: true } };
  }

  /**
   * One history sample: the cluster's figures and each data node's, only what is current (rates while fresh, memory
   * while the management server answers and the node's figures are not stale): a second without them is a gap.
   * `total`: the cluster's rates the figures came from. A node's figures are the same object while what they come
   * from is (an idle cluster's every second): callers read them, never change them.
   */
  sample(at: number, dataIds: readonly number[], connected: (id: number) => boolean): { cluster: MetricValues; perNode: Map<number, MetricValues>; total: Rates | null } {
    const total = this.rates.total(at, dataIds);
    const cluster: MetricValues = {
      ...rateValues(total),
      dataMemory: this.memoryCurrent ? this.memory.clusterPercent('data', dataIds) : null,
      indexMemory: this.memoryCurrent ? this.memory.clusterPercent('index', dataIds) : null,
    };
    const perNode = new Map<number, MetricValues>();
    for (const id of dataIds) {
      const m = this.memory.node(id);
      const shown = this.memoryCurrent && connected(id);
      const rates = this.rates.isFresh(id, at) ? this.rates.node(id) : null;
      const data = shown ? m.data : null;
      const index = shown ? m.index : null;
      let last = this.sampled.get(id);
      // Rates and memory figures are replaced, never changed, when they move: the same objects, the same figures.
      if (last?.rates !== rates || last.data !== data || last.index !== index) {
        last = { rates, data, index, values: { ...rateValues(rates), dataMemory: percentOf(data), indexMemory: percentOf(index) } };
        this.sampled.set(id, last);
      }
      perNode.set(id, last.values);
    }
    return { cluster, perNode, total };
  }

  forget(id: number): void {
    this.sampled.delete(id);
  }

  private applyMemory(e: ClusterEvent, inRound: boolean): void {
    const applied = this.memory.apply(e);
    if (!applied) return;
    // The same pages again (every refresh of an idle cluster) leave the node's view, and so the delta, alone.
    if (applied.changed) this.changes.node(e.sourceNodeId);
    this.memoryAlerts.check(e.sourceNodeId, applied.kind, e.receivedAt, inRound);
  }

  /** One `dump events 50` reply: a node with figures that sent none this time keeps them, marked stale. */
  private applyMemoryRound(events: readonly ClusterEvent[], at: number): void {
    for (const e of events) this.applyMemory(e, true);
    const reported = new Set(events.filter((e) => e.name === 'MemoryUsage').map((e) => e.sourceNodeId));
    for (const id of this.memory.endRound(reported)) this.changes.node(id);
    this.memoryAlerts.roundDone(at);
  }
}

const percentOf = (use: MemoryUse | null): number | null => (use && !use.stale ? use.percent : null);

function rateValues(r: Rates | NodeRates | null): MetricValues {
  return {
    transactions: r?.transactions ?? null,
    commits: r?.commits ?? null,
    reads: r?.reads ?? null,
    writes: r?.writes ?? null,
    scans: r?.scans ?? null,
    aborts: r?.aborts ?? null,
    operations: r?.operations ?? null,
  };
}
