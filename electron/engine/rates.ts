import type { Rates } from '../contract/node.js';
import type { ClusterEvent } from '../../native-mgm/index.js';
import { SlidingSum } from './sliding-sum.js';

/** The DBTC/DBLQH report period (spec §7.1): each instance reports once per window. */
export const RATE_WINDOW_MS = 5000;

/** Vector layout: the rate fields in order, then the concurrentOps gauge. */
const RATE_KEYS = ['transactions', 'commits', 'reads', 'simpleReads', 'writes', 'scans', 'rangeScans', 'aborts', 'operations'] as const;
const GAUGE_INDEX = RATE_KEYS.length;
const WIDTH = RATE_KEYS.length + 1;

const TRANS_FIELD_OF: Partial<Record<(typeof RATE_KEYS)[number], string>> = {
  transactions: 'trans_count',
  commits: 'commit_count',
  reads: 'read_count',
  simpleReads: 'simple_read_count',
  writes: 'write_count',
  scans: 'scan_count',
  rangeScans: 'range_scan_count',
  aborts: 'abort_count',
};

function vectorOf(event: ClusterEvent): number[] | null {
  if (event.name === 'OperationReportCounters') {
    const v = new Array<number>(WIDTH).fill(0);
    v[RATE_KEYS.indexOf('operations')] = event.fields.ops ?? 0;
    return v;
  }
  if (event.name !== 'TransReportCounters') return null;
  const v = RATE_KEYS.map((k) => {
    const field = TRANS_FIELD_OF[k];
    return field === undefined ? 0 : (event.fields[field] ?? 0);
  });
  v.push(event.fields.conc_op_count ?? 0);
  return v;
}

function ratesOf(sum: SlidingSum, at: number): Rates {
  const perSecond = (i: number): number => Math.max(0, ((sum.totals[i] ?? 0) * 1000) / sum.windowMs);
  const rates = Object.fromEntries(RATE_KEYS.map((k, i) => [k, perSecond(i)])) as Record<(typeof RATE_KEYS)[number], number>;
  return { at: Math.round(at), windowMs: sum.windowMs, ...rates, concurrentOps: Math.max(0, sum.totals[GAUGE_INDEX] ?? 0) };
}

/**
 * Throughput per node and for the cluster (spec §7.3): every per-instance delta received in the last window is
 * summed and divided by the window, never one report divided by 5 (that undercounts by the instance count).
 * A rate is computed when a report arrives and carries that time, so a node that stops reporting keeps an
 * ageing rate rather than a fresh-looking one.
 */
export class RateTracker {
  private readonly nodes = new Map<number, { sum: SlidingSum; rates: Rates | null }>();
  private readonly cluster = new SlidingSum(WIDTH, RATE_WINDOW_MS);
  private clusterRates: Rates | null = null;

  /** Returns whether the event was a statistics report. */
  apply(event: ClusterEvent): boolean {
    const vector = vectorOf(event);
    if (!vector) return false;
    const at = event.receivedAt;
    let node = this.nodes.get(event.sourceNodeId);
    if (!node) {
      node = { sum: new SlidingSum(WIDTH, RATE_WINDOW_MS), rates: null };
      this.nodes.set(event.sourceNodeId, node);
    }
    for (const s of [node.sum, this.cluster]) {
      s.add(at, vector);
      s.expire(at);
    }
    node.rates = ratesOf(node.sum, at);
    this.clusterRates = ratesOf(this.cluster, at);
    return true;
  }

  node(id: number): Rates | null {
    return this.nodes.get(id)?.rates ?? null;
  }

  total(): Rates | null {
    return this.clusterRates;
  }
}

/** A rate older than two report periods no longer describes the present (the node or the stream is gone). */
export function isFresh(rates: Rates | null, now: number): rates is Rates {
  return rates !== null && now - rates.at <= 2 * rates.windowMs;
}
