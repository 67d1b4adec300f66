import fc from 'fast-check';
import type { ClusterEvent } from '../../../../../native-mgm/index.js';
import { REPORT_PERIOD_MS } from '../report-stream.js';

export const NODE = 2;

export function report(at: number, reads: number, name = 'TransReportCounters'): ClusterEvent {
  const fields = name === 'TransReportCounters' ? { trans_count: Math.round(reads / 8), commit_count: Math.round(reads / 8), read_count: reads, write_count: 0, conc_op_count: 3 } : { ops: reads };
  return { typeId: name === 'TransReportCounters' ? 35 : 36, name, category: 'STATISTICS', severity: 'INFO', sourceNodeId: NODE, receivedAt: at, fields, data: null } as unknown as ClusterEvent;
}

/** A small deterministic PRNG, so one fast-check seed decides every delay, drop and duplicate of a run. */
function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

interface Disorder {
  instances: number;
  lo: number;
  hi: number;
  maxDelayMs: number;
  /** Arrivals are held and released together every bunchMs (0: no bunching), as a stalled event loop does. */
  bunchMs: number;
  dropRate: number;
  duplicateRate: number;
  seed: number;
}

/**
 * N instances with their own phases each report every 5 s what they did in their last period, at a true
 * per-instance rate that wanders within [lo, hi]; the stream is delayed, bunched, shuffled within bunches, and
 * loses and duplicates reports. Returns the arrivals in the order a listener sees them.
 */
export function disorderedStream(d: Disorder, periods: number): ClusterEvent[] {
  const random = prng(d.seed);
  const arrivals: Array<{ at: number; order: number; event: ClusterEvent }> = [];
  for (let i = 0; i < d.instances; i++) {
    const phase = random() * REPORT_PERIOD_MS;
    for (let k = 1; k <= periods; k++) {
      const rate = d.lo + random() * (d.hi - d.lo);
      const sent = phase + k * REPORT_PERIOD_MS;
      if (random() < d.dropRate) continue;
      let at = sent + random() * d.maxDelayMs;
      if (d.bunchMs > 0) at = Math.ceil(at / d.bunchMs) * d.bunchMs;
      const event = report(Math.round(at), Math.round((rate * REPORT_PERIOD_MS) / 1000));
      arrivals.push({ at: Math.round(at), order: random(), event });
      if (random() < d.duplicateRate) arrivals.push({ at: Math.round(at + random() * 200), order: random(), event: { ...event, receivedAt: Math.round(at + random() * 200) } });
    }
  }
  // Same arrival time: any order (a bunch is handed over in one read).
  arrivals.sort((a, b) => a.at - b.at || a.order - b.order);
  return arrivals.map((a) => ({ ...a.event, receivedAt: a.at }));
}

export const disorder = fc.record({
  instances: fc.integer({ min: 1, max: 4 }),
  lo: fc.integer({ min: 0, max: 200_000 }),
  spread: fc.integer({ min: 0, max: 200_000 }),
  maxDelayMs: fc.integer({ min: 0, max: 3_000 }),
  bunchMs: fc.constantFrom(0, 1_000, 2_500, 7_000),
  dropRate: fc.double({ min: 0, max: 0.03, noNaN: true }),
  duplicateRate: fc.double({ min: 0, max: 0.03, noNaN: true }),
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
}).map(({ spread, ...d }): Disorder => ({ ...d, hi: d.lo + spread }));

