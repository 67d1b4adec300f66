import type { LoadRates } from '../workload/load-profile.js';
import { constantProfile, driveRun, fallingProfile } from './benchmark-driver.js';
import type { Scenario } from './scenario.js';

/** Transactions/s per data node at full concurrency before the cliff (an OLTP mix: 10 reads, 4 writes each). */
const PEAK_TPS_PER_NODE = 6000;
export const COLLAPSE_TIMING = {
  /** The last, highest concurrency step; the fall comes `fallAfterMs` into it and takes `fallMs`. */
  steps: [
    { threads: 16, share: 0.45, durationMs: 20_000 },
    { threads: 32, share: 0.75, durationMs: 20_000 },
    { threads: 64, share: 1, durationMs: 150_000 },
  ],
  fallAfterMs: 75_000,
  fallMs: 3_000,
  /** Throughput left after the fall: −88 %. */
  remaining: 0.12,
};
const BETWEEN_RUNS_MS = 30_000;

function oltp(tps: number): LoadRates {
  return { readsPerSec: tps * 10, writesPerSec: tps * 4, transPerSec: tps, scansPerSec: tps / 100, rangeScansPerSec: tps / 10 };
}

/**
 * Bug 42729's shape: a concurrency sweep whose last step runs steady, then throughput falls by 88 % within three
 * seconds while every node stays STARTED and nothing else is logged. The steps are marked phases; the fall is not.
 */
export const collapse: Scenario = {
  name: 'collapse',
  description: 'concurrency sweep (phases threads=16/32/64); at 64 throughput collapses by 88 % in 3 s, nodes stay STARTED',
  async run(ctx) {
    const peak = PEAK_TPS_PER_NODE * ctx.model.data.size;
    const { steps, fallAfterMs, fallMs, remaining } = COLLAPSE_TIMING;
    for (;;) {
      await driveRun(ctx, {
        name: 'concurrency sweep',
        tags: { ndb_cache_check_time: '1000', nodes: String(ctx.model.data.size) },
        phases: steps.map((s, i) => ({
          name: `threads=${s.threads}`,
          durationMs: s.durationMs,
          profile:
            i === steps.length - 1
              ? fallingProfile('collapse', oltp(peak * s.share), oltp(peak * s.share * remaining), fallAfterMs, fallMs)
              : constantProfile(`threads-${s.threads}`, oltp(peak * s.share)),
        })),
      });
      await ctx.clock.sleep(BETWEEN_RUNS_MS);
    }
  },
};
