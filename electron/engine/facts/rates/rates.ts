import type { NodeRates, Rates } from '../../../contract/schemas/node.js';
import type { BlockInstances, ClusterEvent } from '../../../../native-mgm/index.js';
import { implausible } from './plausible.js';
import { REPORT_PERIOD_MS, ReportStream, sameNumbers } from './report-stream.js';

export const RATE_WINDOW_MS = REPORT_PERIOD_MS;

/** What `apply` answers, shared: one object made for each of ~230 reports a second was garbage at once. */
const CHANGED: { readonly changed: boolean } = Object.freeze({ changed: true });
const UNCHANGED: { readonly changed: boolean } = Object.freeze({ changed: false });

/** `reportedAt` of a node with no report that counts (none yet, or none since a restart or a lost stream): never fresh. */
const NOT_SINCE = Number.NEGATIVE_INFINITY;

/**
 * Where nodes' instance counts come from: the configuration where it decides them, or arrivals alone, as every
 * ndbtop before December 2026 counted them (a replay of a recording it made must derive what it derived).
 */
export type RateInstances = 'configuration' | 'arrivals';

/** TransReportCounters fields in vector order; conc_op_count is a gauge (spec §7.1), the rest are deltas. */
const TC_FIELDS = [
  ['transactions', 'trans_count'],
  ['commits', 'commit_count'],
  ['reads', 'read_count'],
  ['simpleReads', 'simple_read_count'],
  ['writes', 'write_count'],
  ['scans', 'scan_count'],
  ['rangeScans', 'range_scan_count'],
  ['aborts', 'abort_count'],
  ['concurrentOps', 'conc_op_count'],
] as const;
const TC_GAUGES: ReadonlySet<number> = new Set([TC_FIELDS.length - 1]);
const NO_GAUGES: ReadonlySet<number> = new Set();

type RateFields = Omit<Rates, 'windowMs' | 'rejectedReports' | 'contributing'>;

interface NodeStreams {
  tc: ReportStream;
  lqh: ReportStream;
  rejected: number;
  /** The configuration's instance counts were applied (at the first report, the first read or a restart). */
  configured: boolean;
  /** Arrival of the newest report used: what freshness is judged by (not pushed: an idle node's zeros then stay equal). */
  reportedAt: number;
  /** `node()` as of the last report that moved it; undefined once one did. Every push and tick reads it for every node. */
  rates?: NodeRates | null;
}

function zeroFields(): RateFields {
  return { transactions: 0, commits: 0, reads: 0, simpleReads: 0, writes: 0, scans: 0, rangeScans: 0, aborts: 0, concurrentOps: 0, operations: 0 };
}

/**
 * Throughput per node and for the cluster (spec §7.3). A node's rate comes from its reports' own periods (see
 * ReportStream), TC and LQH instances apart, as many as its configuration gives it; the cluster total is the sum
 * of the nodes whose latest report is fresh, and says how many those were, so a node that stopped reporting
 * neither freezes nor zeroes the total.
 */
export class RateTracker {
  private readonly nodes = new Map<number, NodeStreams>();

  /** `configured`: a data node's instance counts as the configuration last read decides them (null: it does not). */
  constructor(private readonly configured: (id: number) => BlockInstances | null = () => null) {}

  /**
   * A configuration was read. Nodes already counted by an earlier one keep their counts: a data node reads its
   * thread configuration when it starts, so a new one applies from its next restart.
   */
  configurationRead(): void {
    for (const [id, node] of this.nodes) if (!node.configured) this.configure(id, node);
  }

  /**
   * null when the event is not a statistics report; else whether it changed the node's rates. An idle cluster's
   * instances keep reporting zeros (~230 reports a second at 144 data nodes): those leave the node's rates the
   * same object, so nothing downstream rebuilds or compares the node for them.
   */
  apply(event: ClusterEvent): { readonly changed: boolean } | null {
    const isTc = event.name === 'TransReportCounters';
    if (!isTc && event.name !== 'OperationReportCounters') return null;
    const node = this.streams(event.sourceNodeId);
    const stream = isTc ? node.tc : node.lqh;
    const before = stream.rates();
    const values = isTc ? TC_FIELDS.map(([, f]) => event.fields[f] ?? 0) : [event.fields.ops ?? 0];
    if (implausible(values, isTc ? TC_GAUGES : NO_GAUGES, REPORT_PERIOD_MS)) {
      node.rejected += 1;
      node.rates = undefined;
      return CHANGED;
    }
    stream.add(event.receivedAt, values);
    node.reportedAt = Math.max(node.reportedAt, event.receivedAt);
    const after = stream.rates();
    // The node's rates are its two streams' values: the same values, the same rates (when they arrived is not shown).
    const changed = before !== after && (before === null || after === null || before.instances !== after.instances || !sameNumbers(before.values, after.values));
    if (changed) node.rates = undefined;
    return changed ? CHANGED : UNCHANGED;
  }

  /** The node restarted: its instances' first reports cover new periods, unrelated to the ones before. */
  restarted(id: number): void {
    const node = this.nodes.get(id);
    if (!node) return;
    node.tc.clear();
    node.lqh.clear();
    node.reportedAt = NOT_SINCE;
    this.configure(id, node);
  }

  /**
   * The event stream was lost: no report can come until it is back, so nothing reported before counts as current,
   * however recent (a killed server's last reports would otherwise pass for ten more seconds of throughput).
   */
  streamLost(): void {
    for (const node of this.nodes.values()) node.reportedAt = NOT_SINCE;
  }

  private configure(id: number, node: NodeStreams): void {
    const counts = this.configured(id);
    node.tc.configure(counts?.tc ?? null);
    node.lqh.configure(counts?.lqh ?? null);
    node.configured = counts !== null;
    node.rates = undefined;
  }

  /** The same object until a report changes the node's rates: callers copy before they change it. */
  node(id: number): NodeRates | null {
    const node = this.nodes.get(id);
    if (!node) return null;
    node.rates ??= this.compute(node);
    return node.rates;
  }

  /** Whether the node's rates still describe the present at `now`: its newest report is at most two periods old. */
  isFresh(id: number, now: number): boolean {
    const node = this.nodes.get(id);
    return node !== undefined && this.node(id) !== null && now - node.reportedAt <= 2 * REPORT_PERIOD_MS;
  }

  private compute(node: NodeStreams): NodeRates | null {
    const tc = node.tc.rates();
    const lqh = node.lqh.rates();
    if (!tc && !lqh) return null;
    const fields = zeroFields();
    TC_FIELDS.forEach(([k], i) => (fields[k] = Math.max(0, tc?.values[i] ?? 0)));
    fields.operations = Math.max(0, lqh?.values[0] ?? 0);
    return { windowMs: REPORT_PERIOD_MS, ...fields, rejectedReports: node.rejected };
  }

  /** Sum over `dataNodeIds` whose rates are fresh at `now`; null when none is. */
  total(now: number, dataNodeIds: readonly number[]): Rates | null {
    const fields = zeroFields();
    let contributing = 0;
    let rejected = 0;
    // Every push and every tick sums every node: one lookup each, and each field by name (a loop over the names
    // made each sum a lookup by a key that changes).
    for (const id of dataNodeIds) {
      const node = this.nodes.get(id);
      if (!node) continue;
      rejected += node.rejected;
      node.rates ??= this.compute(node);
      const r = node.rates;
      if (!r || now - node.reportedAt > 2 * REPORT_PERIOD_MS) continue;
      contributing += 1;
      fields.transactions += r.transactions;
      fields.commits += r.commits;
      fields.reads += r.reads;
      fields.simpleReads += r.simpleReads;
      fields.writes += r.writes;
      fields.scans += r.scans;
      fields.rangeScans += r.rangeScans;
      fields.aborts += r.aborts;
      fields.concurrentOps += r.concurrentOps;
      fields.operations += r.operations;
    }
    if (contributing === 0) return null;
    return { windowMs: REPORT_PERIOD_MS, ...fields, rejectedReports: rejected, contributing: { nodes: contributing, of: dataNodeIds.length } };
  }

  private streams(id: number): NodeStreams {
    let node = this.nodes.get(id);
    if (!node) {
      node = { tc: new ReportStream(TC_GAUGES), lqh: new ReportStream(NO_GAUGES), rejected: 0, configured: false, reportedAt: NOT_SINCE };
      this.configure(id, node);
      this.nodes.set(id, node);
    }
    return node;
  }
}
