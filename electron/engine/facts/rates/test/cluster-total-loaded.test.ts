import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import type { HistoryPoint } from '../../../../contract/schemas/history.js';
import { createEngine } from '../../../create-engine.js';
import { waitFor } from '../../../test/helpers.js';

const DATA_NODES = 144;
/** Sim time runs this much faster: a benchmark run's warmup, peak and cooldown within the test's minute. */
const SPEED = 4;
/** The benchmark scenario's peak across the cluster (1.2M reads/s): the simulated cluster's rate at any speed-up. */
const PEAK_READS = 1_200_000;

/** Burns a core in another process, as the other programs on a busy machine do, until killed. */
function cpuHog(): () => void {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  return () => child.kill('SIGKILL');
}

test('144 data nodes, benchmark load, a CPU hog beside it: the cluster total stays within 10 % of the per-node sum at every sample', { timeout: 240_000 }, async () => {
  const stopHog = cpuHog();
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'benchmark', dataNodes: DATA_NODES, apiNodes: 109, speed: SPEED } }).catch((err: unknown) => {
    stopHog();
    throw err;
  });
  const points: HistoryPoint[] = [];
  const unsubscribe = engine.subscribe((m) => {
    if (m.type === 'history') points.push(...m.points);
  });
  try {
    const loaded = (p: HistoryPoint): boolean => (p.values['cluster.reads'] ?? 0) > PEAK_READS / 2;
    // Until the load has been at its peak for 15 samples (and every node has had time to report often).
    await waitFor('15 samples at benchmark load', () => points.filter(loaded).length >= 15, 200_000);
    let checked = 0;
    for (const p of points) {
      const cluster = p.values['cluster.reads'];
      if (cluster === null || cluster === undefined) continue;
      let sum = 0;
      let nodes = 0;
      for (let id = 1; id <= 255; id++) {
        const v = p.values[`node.${id}.reads`];
        if (v === null || v === undefined) continue;
        sum += v;
        nodes += 1;
      }
      assert.ok(nodes > 0, `a cluster total at ${p.at} with no node contributing`);
      assert.ok(Math.abs(cluster - sum) <= 0.1 * Math.max(sum, 1), `at ${p.at}: cluster ${cluster} reads/s vs per-node sum ${sum}`);
      // Never an absurd figure (a negative count read unsigned gave 10⁵ × the peak), nor one a starved simulator's
      // catch-up bursts inflate: the instance counts are the configuration's, so only the reports' ±4 % jitter is left.
      assert.ok(cluster <= PEAK_READS * 1.15, `at ${p.at}: cluster ${cluster} reads/s, peak is ${PEAK_READS}`);
      checked += 1;
    }
    assert.ok(checked >= 15);
    // At the plateau the per-node figures agree with the load: every STARTED node carries its share.
    const last = points.filter(loaded).at(-1);
    const perNode = (last?.values['cluster.reads'] ?? 0) / DATA_NODES;
    assert.ok(perNode > (PEAK_READS / DATA_NODES) * 0.5, `per node ${perNode}`);
    // The simulator's counts are all possible ones now: the engine had nothing to reject.
    const snapshot = await engine.handlers.getSnapshot({});
    assert.equal(snapshot.rates?.rejectedReports, 0);
    assert.equal(snapshot.rates?.contributing?.of, DATA_NODES);
  } finally {
    unsubscribe();
    stopHog();
    await engine.close();
  }
});
