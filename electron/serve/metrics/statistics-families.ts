import type { NodeCounters } from '../../contract/schemas/counters.js';
import type { NodeView } from '../../contract/schemas/node.js';
import { isUp } from '../../engine/cluster/node-status.js';
import type { Counter } from 'prom-client';
import type { FamilyMaker, FamilyRecorder } from './family.js';

type TotalKey = Exclude<keyof NodeCounters, 'nodeId' | 'lastReportAt'>;

/** Counter name suffix (after ndbtop_ndb_, before _total) and HELP for every running total the engine keeps. */
const TOTALS: ReadonlyArray<readonly [TotalKey, string, string]> = [
  ['transactions', 'transactions', 'Transactions started (TransReportCounters trans_count, all TC instances)'],
  ['commits', 'commits', 'Transactions committed (commit_count)'],
  ['aborts', 'aborts', 'Transactions aborted (abort_count)'],
  ['reads', 'reads', 'Primary-key read operations, simple reads included (read_count)'],
  ['simpleReads', 'simple_reads', 'Simple (committed) reads, a subset of reads (simple_read_count)'],
  ['writes', 'writes', 'Write operations: insert, update, delete, write (write_count)'],
  ['scans', 'table_scans', 'Table scans started (scan_count)'],
  ['rangeScans', 'range_scans', 'Index range scans started (range_scan_count)'],
  ['attrinfo', 'attrinfo', 'Attribute-info signals, a proxy for request volume (attrinfo_count)'],
  ['operations', 'operations', 'Operations executed by the local query handlers (OperationReportCounters ops, all LQH instances)'],
  ['reports', 'statistics_reports', 'TransReportCounters and OperationReportCounters records received (each TC/LQH instance sends one per 5 s)'],
];

/** The engine marks rates stale once its newest report is over two periods old: the node, or the event stream, is gone. */
const current = (node: NodeView): boolean => isUp(node.status) && node.rates !== null && node.rates.stale !== true;

/**
 * Throughput as Prometheus wants it: `_total` counters per data node, summed by ndbtop from the per-instance
 * deltas, so `rate()` works at any scrape interval and a node restart is no counter reset. The one gauge here,
 * operations in flight, is only exported for a node that is up and reporting: a frozen last value would lie.
 */
export function statisticsFamilies({ gauge, counter }: FamilyMaker): FamilyRecorder {
  const counters = TOTALS.map(([key, name, help]): [TotalKey, Counter] => [key, counter(`ndbtop_ndb_${name}_total`, `${help}, since ndbtop started watching`, ['cluster', 'node_id'])]);
  const inFlight = gauge('ndbtop_ndb_concurrent_operations', 'Operations in progress at the latest reports, summed over TC instances (conc_op_count); only for nodes up and reporting', ['cluster', 'node_id']);

  return ({ cluster, snapshot, counters: totals }) => {
    const byId = new Map(totals.nodes.map((n) => [n.nodeId, n]));
    // Every configured data node, zeros before its first report (a series born at its first value shows no
    // increase to rate()); a node gone from the configuration stops being exported, one merely down stays flat.
    for (const node of snapshot.nodes) {
      if (node.type !== 'NDB') continue;
      const labels = { cluster, node_id: String(node.nodeId) };
      const sums = byId.get(node.nodeId);
      for (const [key, family] of counters) family.inc(labels, sums?.[key] ?? 0);
      if (current(node)) inFlight.set(labels, node.rates?.concurrentOps ?? 0);
    }
  };
}
