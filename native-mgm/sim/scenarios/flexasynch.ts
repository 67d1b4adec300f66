import type { LoadRates } from '../workload/load-profile.js';
import { constantProfile, driveRun, NO_LOAD } from './benchmark-driver.js';
import type { Scenario } from './scenario.js';

/** Operations per second per data node in each phase: flexAsynch's ~200k, scaling with the data nodes. */
export const FLEXASYNCH_PER_NODE = { insert: 190_000, read: 230_000, update: 180_000, delete: 200_000 } as const;
export const FLEXASYNCH_PHASE_MS = 30_000;
const BETWEEN_RUNS_MS = 20_000;

/** One operation per transaction, as flexAsynch with `-o 1`; reads are key lookups, the rest writes. */
function phaseRates(phase: keyof typeof FLEXASYNCH_PER_NODE, dataNodes: number): LoadRates {
  const ops = FLEXASYNCH_PER_NODE[phase] * dataNodes;
  const reads = phase === 'read' ? ops : 0;
  return { ...NO_LOAD, readsPerSec: reads, writesPerSec: ops - reads, transPerSec: ops };
}

export const flexAsynch: Scenario = {
  name: 'flexasynch',
  description: 'flexAsynch-like runs: insert, read, update, delete phases at ~200k ops/s per data node, marked as runs',
  async run(ctx) {
    const dataNodes = ctx.model.data.size;
    for (let i = 1; ; i++) {
      await driveRun(ctx, {
        name: `flexAsynch #${i}`,
        tags: { benchmark: 'flexAsynch', nodes: String(dataNodes) },
        phases: (['insert', 'read', 'update', 'delete'] as const).map((p) => ({ name: p, durationMs: FLEXASYNCH_PHASE_MS, profile: constantProfile(`flexasynch-${p}`, phaseRates(p, dataNodes)) })),
      });
      await ctx.clock.sleep(BETWEEN_RUNS_MS);
    }
  },
};
