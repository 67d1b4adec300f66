import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BENCHMARK_RATES } from '../../../../../native-mgm/sim/workload/load-profile.js';
import { createEngine } from '../../../create-engine.js';
import { waitFor } from '../../../test/helpers.js';

test('during a run, the benchmark scenario\'s memory alerts coming back each cycle are one alert and one history row each, reopened with a count', async () => {
  const engine = await createEngine({
    host: 'serve',
    pollIntervalMs: 500,
    simulator: { scenario: 'benchmark', dataNodes: 2, speed: 16, sql: false },
    memoryAlertHoldMs: 500,
  });
  try {
    await engine.handlers.startRun({ name: 'bench-1', phase: 'load' });
    const rate = async (): Promise<number> => (await engine.handlers.getSnapshot({})).rates?.transactions ?? 0;
    const peak = BENCHMARK_RATES.transPerSec;
    for (let cycle = 1; cycle <= 2; cycle++) {
      await waitFor(`cycle ${cycle} at its peak`, async () => (await rate()) > peak * 0.9, 60_000);
      await waitFor(`cycle ${cycle} idle`, async () => (await rate()) < peak * 0.05, 60_000);
    }
    // Each memory alert on and over at least twice by now, with all of them over. (A `fill-soon` lead-time warning
    // raised on the climb lasts until the minute its trend is fitted to has no climb in it: not this test's subject.)
    const isMemory = (e: { kind: string }): boolean => e.kind === 'memory-high' || e.kind === 'memory-critical';
    const { entries } = await waitFor('every memory alert over', async () => {
      const history = await engine.handlers.getAlertHistory({});
      return history.entries.filter(isMemory).every((e) => e.clearedAt !== null) ? history : null;
    });
    const memory = entries.filter(isMemory);
    const subjects = memory.map((e) => `${e.kind} ${e.nodeId}`);
    assert.ok(memory.length > 0, 'the benchmark raised memory alerts');
    assert.deepEqual(subjects, [...new Set(subjects)], 'one history row per kind and subject during the run');
    for (const e of memory) assert.match(e.message, /\((2nd|3rd|\dth) time during run bench-1, phase load\)$/, 'back in later cycles, named');
    const alerts = (await engine.handlers.getSnapshot({})).alerts.filter((a) => a.kind.startsWith('memory-'));
    assert.deepEqual(alerts.map((a) => a.id).sort(), memory.map((e) => e.id).sort(), 'one alert each in the book');
    const raised = (await engine.handlers.getCounters({})).alerts.filter((c) => c.kind.startsWith('memory-'));
    assert.equal(raised.reduce((sum, c) => sum + c.raised, 0), memory.length, 'counted raised once each');
  } finally {
    await engine.close();
  }
});
