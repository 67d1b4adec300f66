import type { BlockInstances, ConfigParams } from '../../config/index.js';
import type { ClusterState } from '../state/cluster-state.js';
import type { DataNode } from '../state/node-state.js';
import { derivePrng } from '../state/prng.js';
import type { StatisticsEngine } from '../workload/statistics.js';
import { cpuPercentages, threadDemands, type CpuPercentages, type ThreadDemand } from './cpu-model.js';
import { nodeLinks, type Link } from './link-traffic.js';
import { NO_NODE_LOAD, nodeLoad, type NodeLoad } from './node-load.js';
import { DEFAULT_REWRITE_SHARE, RedoLog } from './redo-log.js';
import { RestartLog } from './restart-log.js';
import { threadLayout, type DataNodeThread } from './thread-layout.js';
import { NodeTotals } from './node-totals.js';
import { advanceBacklog, SEND_BUFFER_BYTES, sendBufferState, type SendBufferLimits, type SendBufferState } from './send-buffer.js';
import { pressDemands, stealOsTime, type ThreadPressure } from './thread-pressure.js';

/** Integration step: state that depends on its own past (redo, checkpoints, counters) is stepped at most this far at once. */
const STEP_MS = 250;
/**
 * A step costs a link per node pair: past this many data nodes (144 have ~21,000 links) the step is a second, so a
 * large simulated cluster's SQL node keeps up with its readers; episodes of overload last tens of seconds either way.
 */
const FINE_STEPS_UP_TO = 48;
const LARGE_STEP_MS = 1000;
/** Bytes a write logs and sends per replica (a small key-value row, as flexAsynch writes); scenarios may change it. */
export const DEFAULT_ROW_BYTES = 100;
/** Second-to-second variation of a thread's CPU figures. */
const CPU_NOISE = 0.03;

const positive = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);

const processUp = (n: DataNode): boolean => n.status === 'STARTING' || n.status === 'STARTED' || n.status === 'SHUTTING_DOWN';

export interface ActivitySources {
  statistics: StatisticsEngine;
  instances: (nodeId: number) => BlockInstances;
  /** A data node's parameters in the served configuration (thread, redo and buffer sizes). */
  params: (nodeId: number) => ConfigParams | undefined;
  /** The parameters of each of a node's connections in the served configuration (SendBufferMemory), by remote node. */
  connections: (nodeId: number) => Map<number, ConfigParams>;
  /** Bytes/s a running backup writes on the node at a time (0 without one): ndbinfo's backup_lcp write speed counts them. */
  backupBytesPerSec?: (nodeId: number, at: number) => number;
  seed: number;
}

/**
 * What the data nodes do inside, for ndbinfo: threads and their CPU, redo log and checkpoints, bytes on each
 * transporter, block counters and restart timings, all following the same load and node states as the management
 * side's statistics. State is integrated lazily up to the time a reader asks for (`advanceTo`), so a query sees
 * one instant; figures that depend only on the load at a time (CPU) are computed for that time.
 */
export class ClusterActivity {
  readonly restarts: RestartLog;
  rowBytes = DEFAULT_ROW_BYTES;
  /** What share of the logged bytes the next checkpoint writes again (`RedoLog.advance`); scenarios may change it. */
  lcpRewriteShare = DEFAULT_REWRITE_SHARE;
  /** Bytes/s each transporter's network carries before its send buffer backs up; scenarios may narrow it. */
  linkBytesPerSec = Infinity;
  /** Scenario knob: threads starved on a node (by node id), as cpustat and threadstat show them. */
  readonly threadPressure = new Map<number, ThreadPressure>();
  private readonly redo = new Map<number, RedoLog>();
  private readonly totals = new Map<number, NodeTotals>();
  private readonly layouts = new Map<number, DataNodeThread[]>();
  /** Per data node, the bytes waiting for the network in each link's send buffer, by remote node. */
  private readonly backlogs = new Map<number, Map<number, number>>();
  private readonly bufferLimits = new Map<number, { links: Map<number, number>; nodeBytes: number }>();
  private last: number;
  /**
   * Integrating costs CPU at every status change (links grow with the square of the nodes: a 48-node rolling restart
   * at speed 20 spent most of its time here), and only ndbinfo reads it. Asleep, the activity keeps no state until
   * the first read (`advanceTo`), which starts from the last status change, so no step is integrated with a state
   * the nodes were not in.
   */
  private asleep = false;

  constructor(
    private readonly cluster: ClusterState,
    private readonly sources: ActivitySources,
  ) {
    this.restarts = new RestartLog(cluster);
    this.last = cluster.clock.now();
    cluster.onStatusChange((node) => {
      if (this.asleep) this.last = cluster.clock.now();
      else this.advanceTo(cluster.clock.now());
      // A new process: its threads are laid out from the configuration again and its counters start from zero.
      if (node.status === 'STARTING' && node.startPhase === 0) {
        this.layouts.delete(node.id);
        this.totals.delete(node.id);
        this.backlogs.delete(node.id);
        this.bufferLimits.delete(node.id);
      }
    });
  }

  threads(nodeId: number): DataNodeThread[] {
    let layout = this.layouts.get(nodeId);
    if (!layout) {
      layout = threadLayout(this.sources.params(nodeId), this.sources.instances(nodeId));
      this.layouts.set(nodeId, layout);
    }
    return layout;
  }

  redoLog(nodeId: number): RedoLog {
    let log = this.redo.get(nodeId);
    if (!log) {
      log = new RedoLog(this.sources.params(nodeId));
      this.redo.set(nodeId, log);
    }
    return log;
  }

  nodeTotals(nodeId: number): NodeTotals {
    let totals = this.totals.get(nodeId);
    if (!totals) {
      totals = new NodeTotals(this.cluster.clock.now(), this.threads(nodeId).length);
      this.totals.set(nodeId, totals);
    }
    return totals;
  }

  /** Nodes whose process runs: the ones ndbinfo has rows from. */
  reportingNodes(): DataNode[] {
    return [...this.cluster.data.values()].filter(processUp);
  }

  /** What one data node handles per second at sim time `t` (nothing unless STARTED); `started`: how many data nodes are. */
  loadAt(node: DataNode, t: number, started = this.startedCount()): NodeLoad {
    if (node.status !== 'STARTED') return NO_NODE_LOAD;
    return nodeLoad(this.sources.statistics.ratesAt(t), started, this.cluster.replicas);
  }

  linksAt(node: DataNode, t: number): Link[] {
    return this.linksFor(node, this.loadAt(node, t));
  }

  demandsAt(node: DataNode, t: number): ThreadDemand[] {
    const load = this.loadAt(node, t);
    return this.demandsFor(node, load, this.linksFor(node, load));
  }

  private startedCount(): number {
    let started = 0;
    for (const n of this.cluster.data.values()) if (n.status === 'STARTED') started++;
    return started;
  }

  private linksFor(node: DataNode, load: NodeLoad): Link[] {
    const backlog = this.backlogs.get(node.id);
    const links = nodeLinks(this.cluster, node, load, this.rowBytes, (remoteId, out): SendBufferState => sendBufferState(backlog?.get(remoteId) ?? 0, out, this.limits(node.id, remoteId)));
    // What is offered beyond the network waits in the buffer: the link carries (and its counters count) no more than
    // the network does.
    const bandwidth = this.linkBytesPerSec;
    if (!Number.isFinite(bandwidth)) return links;
    for (const l of links) {
      l.outPerSec = Math.min(l.outPerSec, bandwidth);
      l.inPerSec = Math.min(l.inPerSec, bandwidth);
    }
    return links;
  }

  /** A link's SendBufferMemory and its node's TotalSendBufferMemory (0 configured: the sum over its links). */
  private limits(nodeId: number, remoteId: number): SendBufferLimits {
    let node = this.bufferLimits.get(nodeId);
    if (!node) {
      const links = new Map<number, number>();
      for (const [remote, params] of this.sources.connections(nodeId)) links.set(remote, positive(params['SendBufferMemory']) ?? SEND_BUFFER_BYTES);
      let sum = 0;
      for (const bytes of links.values()) sum += bytes;
      node = { links, nodeBytes: positive(this.sources.params(nodeId)?.['TotalSendBufferMemory']) ?? (sum || Infinity) };
      this.bufferLimits.set(nodeId, node);
    }
    return { linkBytes: node.links.get(remoteId) ?? SEND_BUFFER_BYTES, nodeBytes: node.nodeBytes };
  }

  /**
   * Each link's send buffer after `dt` at the rates of `links`: it fills at what is offered beyond the network and
   * drains at the network's speed, within the link's and the node's configured memory. An unlimited network keeps none.
   */
  private advanceBuffers(nodeId: number, links: readonly Link[], dt: number): void {
    const bandwidth = this.linkBytesPerSec;
    let backlog = this.backlogs.get(nodeId);
    if (!Number.isFinite(bandwidth)) {
      backlog?.clear();
      return;
    }
    if (!backlog) this.backlogs.set(nodeId, (backlog = new Map()));
    let pooled = 0;
    for (const bytes of backlog.values()) pooled += bytes;
    for (const l of links) {
      const limits = this.limits(nodeId, l.remoteId);
      const before = backlog.get(l.remoteId) ?? 0;
      const after = advanceBacklog(before, l.offeredPerSec, bandwidth, dt, limits, limits.nodeBytes - pooled);
      pooled += after - before;
      backlog.set(l.remoteId, after);
    }
  }

  private demandsFor(node: DataNode, load: NodeLoad, links: readonly Link[]): ThreadDemand[] {
    const redo = this.redoLog(node.id);
    const traffic = {
      bytesInPerSec: links.reduce((s, l) => s + l.inPerSec, 0),
      bytesOutPerSec: links.reduce((s, l) => s + l.outPerSec, 0),
      lcpBytesPerSec: redo.lcpRunning ? redo.speed : 0,
    };
    const threads = this.threads(node.id);
    return pressDemands(threads, threadDemands(threads, load, traffic), this.threadPressure.get(node.id));
  }

  /** cpustat's figures for each thread of a node over the second before `t`. */
  cpuAt(node: DataNode, t: number, second = Math.floor(t / 1000)): CpuPercentages[] {
    const cpu = this.demandsAt(node, t).map((d, thrNo) => cpuPercentages(d, 1 + (derivePrng(this.sources.seed, node.id, thrNo, second)() * 2 - 1) * CPU_NOISE));
    return stealOsTime(this.threads(node.id), cpu, this.threadPressure.get(node.id));
  }

  /** Keep no state until something reads it (a simulator without an SQL endpoint may never). */
  sleepUntilRead(): void {
    this.asleep = true;
    this.last = this.cluster.clock.now();
  }

  /** Integrates redo, checkpoints, counters and bytes up to sim time `t` (never backwards). */
  advanceTo(t: number): void {
    this.asleep = false;
    const step = this.cluster.data.size > FINE_STEPS_UP_TO ? LARGE_STEP_MS : STEP_MS;
    while (this.last < t) {
      const dt = Math.min(step, t - this.last);
      const mid = this.last + dt / 2;
      // Statuses do not change inside this loop: counted once a step, not once a node (144 × 144 a step otherwise).
      const started = this.startedCount();
      for (const node of this.reportingNodes()) this.step(node, mid, dt, started);
      this.last += dt;
    }
  }

  private step(node: DataNode, at: number, dt: number, started: number): void {
    const load = this.loadAt(node, at, started);
    const redo = this.redoLog(node.id);
    const redoPerSec = load.replicaWrites * this.rowBytes;
    const lcpBytes = redo.advance(dt, redoPerSec, this.lcpRewriteShare);
    const backupBytes = ((this.sources.backupBytesPerSec?.(node.id, at) ?? 0) * dt) / 1000;
    // One node's links are as many as the cluster's nodes: built once a step, for the demands and the totals both.
    const links = this.linksFor(node, load);
    const demands = this.demandsFor(node, load, links);
    this.advanceBuffers(node.id, links, dt);
    this.nodeTotals(node.id).add(at, dt, { load, links, demands, redoBytes: redo.lastDiskBytes, lcpBytes, backupBytes, redoAlert: redo.fill >= 0.25, idle: redoPerSec === 0 });
  }
}
