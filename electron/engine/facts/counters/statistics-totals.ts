import type { NodeCounters } from '../../../contract/schemas/counters.js';
import type { ClusterEvent } from '../../../../native-mgm/index.js';

type TotalKey = Exclude<keyof NodeCounters, 'nodeId' | 'reports' | 'lastReportAt'>;

/** Which report field feeds which total (spec §6.6.5, §7.2); conc_op_count is a gauge and stays out. */
const FIELDS: Record<string, ReadonlyArray<readonly [TotalKey, string]>> = {
  TransReportCounters: [
    ['transactions', 'trans_count'],
    ['commits', 'commit_count'],
    ['reads', 'read_count'],
    ['simpleReads', 'simple_read_count'],
    ['writes', 'write_count'],
    ['attrinfo', 'attrinfo_count'],
    ['aborts', 'abort_count'],
    ['scans', 'scan_count'],
    ['rangeScans', 'range_scan_count'],
  ],
  OperationReportCounters: [['operations', 'ops']],
};

const zero = (nodeId: number): NodeCounters => ({
  nodeId,
  transactions: 0,
  commits: 0,
  reads: 0,
  simpleReads: 0,
  writes: 0,
  attrinfo: 0,
  aborts: 0,
  scans: 0,
  rangeScans: 0,
  operations: 0,
  reports: 0,
  lastReportAt: null,
});

/**
 * Running totals per data node of every statistics report's deltas. Each TC/LQH instance reports what happened
 * since its own previous report, so adding every record up is exact whatever the instance count, and a node that
 * restarts simply goes on adding: nothing here can go backwards (what `rate()` in Prometheus relies on).
 */
export class StatisticsTotals {
  private readonly nodes = new Map<number, NodeCounters>();

  /** Returns whether the event was a statistics report. */
  apply(event: ClusterEvent): boolean {
    const fields = FIELDS[event.name];
    if (!fields) return false;
    let totals = this.nodes.get(event.sourceNodeId);
    if (!totals) {
      totals = zero(event.sourceNodeId);
      this.nodes.set(event.sourceNodeId, totals);
    }
    for (const [key, field] of fields) {
      const delta = event.fields[field] ?? 0;
      // The parser already reads these as unsigned; anything else is not a delta and must not bend the total.
      if (Number.isFinite(delta) && delta > 0) totals[key] += delta;
    }
    totals.reports += 1;
    totals.lastReportAt = Math.max(totals.lastReportAt ?? 0, event.receivedAt);
    return true;
  }

  view(): NodeCounters[] {
    return [...this.nodes.values()].sort((a, b) => a.nodeId - b.nodeId).map((n) => ({ ...n }));
  }
}
