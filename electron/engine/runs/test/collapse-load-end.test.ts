import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BENCHMARK_PHASES } from '../../../../native-mgm/sim/load-profile.js';
import { createEngine } from '../../create-engine.js';
import { waitFor } from '../../test/helpers.js';

test('the benchmark scenario ramping its load down to idle is the load ending, not a throughput collapse', async () => {
  const speed = 8;
  const engine = await createEngine({
    host: 'serve',
    pollIntervalMs: 500,
    simulator: { scenario: 'benchmark', dataNodes: 2, speed },
    collapse: { dropShare: 0.5, windowMs: 4000 },
  });
  try {
    const peak = await waitFor('the benchmark at its peak', async () => {
      const tx = (await engine.handlers.getSnapshot({})).rates?.transactions ?? 0;
      return tx > 50_000 ? tx : null;
    }, 60_000);
    // The planned ramp-down takes cooldownMs of sim time; wait until the load is (nearly) gone.
    await waitFor('the ramp-down to idle', async () => ((await engine.handlers.getSnapshot({})).rates?.transactions ?? peak) < peak * 0.05, 60_000);
    await new Promise((r) => setTimeout(r, (BENCHMARK_PHASES.cooldownMs / speed) + 2000));
    const collapses = (await engine.handlers.getSnapshot({})).alerts.filter((a) => a.kind === 'throughput-collapse');
    assert.deepEqual(collapses.map((a) => a.message), [], 'no collapse raised for the end of the load');
  } finally {
    await engine.close();
  }
});
