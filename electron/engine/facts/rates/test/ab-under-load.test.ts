import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { steadyProfile, type LoadRates } from '../../../../../native-mgm/sim/index.js';
import { createEngine } from '../../../create-engine.js';

/** As the compression A/B scenario: B is the same load 27 % lower, at the speed-up its e2e test runs at. */
const SPEED = 4;
const A_TPS = 46_000;
const B_TPS = A_TPS * 0.73;
const load = (tps: number): LoadRates => ({ readsPerSec: tps * 8, writesPerSec: tps * 2, transPerSec: tps, scansPerSec: 0, rangeScansPerSec: tps / 20 });

/** Burns a core in another process, as the other programs on a busy machine do, until killed. */
function cpuHog(): () => void {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  return () => child.kill('SIGKILL');
}

/**
 * Holds this process's event loop for `blockMs` every `everyMs`: the simulator's report timers (same process) fire
 * late and then all at once, several periods of one instance in one tick, as a starved simulator's do.
 */
function stallEventLoop(blockMs: number, everyMs: number): () => void {
  const timer = setInterval(() => {
    const until = performance.now() + blockMs;
    while (performance.now() < until);
  }, everyMs);
  return () => clearInterval(timer);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test('A/B from the first periods on, beside a CPU hog and with a stalling event loop: B/A holds and every reading is the load', { timeout: 120_000 }, async () => {
  const stopHog = cpuHog();
  const stopStalls = stallEventLoop(300, 1000);
  const engine = await createEngine({ host: 'serve', pollIntervalMs: 500, simulator: { scenario: 'idle', dataNodes: 2, speed: SPEED } });
  const sim = engine.simulator!;
  try {
    /** The engine's cluster transactions/s every 200 ms from 2.5 s after the load is set (two report periods of sim time, so no report straddles the switch) for 6 s. */
    const measure = async (tps: number): Promise<number[]> => {
      sim.model.setLoad(steadyProfile(load(tps)));
      await sleep(2500);
      const readings: number[] = [];
      for (const end = Date.now() + 6000; Date.now() < end; await sleep(200)) {
        const rates = (await engine.handlers.getSnapshot({})).rates;
        if (rates) readings.push(rates.transactions);
      }
      return readings;
    };
    const a = await measure(A_TPS);
    const b = await measure(B_TPS);
    const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
    assert.ok(a.length > 10 && b.length > 10, `${a.length} and ${b.length} readings`);
    // Each report is one instance's 5 s (sim time) with ±4 % jitter; the count of instances is the configuration's.
    for (const [name, readings, tps] of [['A', a, A_TPS], ['B', b, B_TPS]] as const) {
      const off = readings.filter((r) => Math.abs(r - tps) > tps * 0.08);
      assert.deepEqual(off, [], `run ${name}: readings more than 8 % from ${tps} transactions/s`);
    }
    const ratio = mean(b) / mean(a);
    assert.ok(ratio >= 0.7 && ratio <= 0.75, `B/A ${ratio}: the load is 27 % lower`);
  } finally {
    stopStalls();
    stopHog();
    await engine.close();
  }
});
