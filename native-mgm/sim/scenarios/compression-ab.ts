import type { LoadRates } from '../workload/load-profile.js';
import { constantProfile, driveRun } from './benchmark-driver.js';
import type { Scenario } from './scenario.js';

/** Requests/s of the same client load without and with protocol compression: 46k against 33.6k (−27 %). */
export const COMPRESSION_AB = { offTps: 46_000, onShare: 0.73, warmupMs: 20_000, measureMs: 40_000, betweenMs: 10_000 } as const;

function load(tps: number): LoadRates {
  return { readsPerSec: tps * 8, writesPerSec: tps * 2, transPerSec: tps, scansPerSec: 0, rangeScansPerSec: tps / 20 };
}

/** Alternates run A (compress=off) and run B (compress=on), each a warm-up then a measured phase. */
export const compressionAb: Scenario = {
  name: 'compression-ab',
  description: 'A/B runs of one load without and with client protocol compression (B 27 % lower), warm-up + measure phases',
  async run(ctx) {
    const { offTps, onShare, warmupMs, measureMs, betweenMs } = COMPRESSION_AB;
    for (;;) {
      for (const compress of ['off', 'on'] as const) {
        const profile = constantProfile(`compress-${compress}`, load(compress === 'off' ? offTps : offTps * onShare));
        await driveRun(ctx, {
          name: `compress=${compress}`,
          tags: { compress, nodes: String(ctx.model.data.size) },
          phases: [
            { name: 'warm-up', durationMs: warmupMs, profile },
            { name: 'measure', durationMs: measureMs, profile },
          ],
        });
        await ctx.clock.sleep(betweenMs);
      }
    }
  },
};
