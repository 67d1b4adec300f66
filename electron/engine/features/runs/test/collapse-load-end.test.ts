import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BENCHMARK_RATES } from '../../../../../native-mgm/sim/workload/load-profile.js';
import { createEngine } from '../../../create-engine.js';
import { waitFor } from '../../../test/helpers.js';

test('the benchmark scenario ramping its load down to idle and up again is the load ending and coming back, not a throughput collapse', async () => {
  const speed = 8;
  const engine = await createEngine({
    host: 'serve',
    pollIntervalMs: 500,
    simulator: { scenario: 'benchmark', dataNodes: 2, speed },
    collapse: { dropShare: 0.5, windowMs: 4000 },
  });
  try {
    const rate = async (): Promise<number> => (await engine.handlers.getSnapshot({})).rates?.transactions ?? 0;
    const peak = BENCHMARK_RATES.transPerSec;
    await waitFor('the benchmark at its peak', async () => (await rate()) > peak * 0.9, 60_000);
    await waitFor('the ramp-down to idle', async () => (await rate()) < peak * 0.05, 60_000);
    // Past the next cycle's ramp-up: operations in flight come back before the reported throughput does, which
    // read as a collapse against the previous cycle's level while both fitted in the detector's reach.
    await waitFor('the next cycle back at its peak', async () => (await rate()) > peak * 0.9, 60_000);
    const collapses = (await engine.handlers.getSnapshot({})).alerts.filter((a) => a.kind === 'throughput-collapse');
    assert.deepEqual(collapses.map((a) => a.message), [], 'no collapse raised for the end of the load');
  } finally {
    await engine.close();
  }
});
