import assert from 'node:assert/strict';
import { test } from 'node:test';
import { STEADY_RATES } from '../../../../../native-mgm/sim/index.js';
import { createEngine } from '../../../create-engine.js';
import { newestReportAt, PushWatcher, waitFor } from '../../../test/helpers.js';

const SPEED = 10;
const TC_INSTANCES = 4;

test('throughput: every TC and LQH instance of a node is summed over the window (not one report / 5 s)', async () => {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'steady', dataNodes: 4, tcInstances: TC_INSTANCES, lqhInstances: 2, speed: SPEED } });
  const watch = new PushWatcher(engine);
  const started = Date.now();
  try {
    // The first window after start still holds partial reports; wait for a full one after it.
    await waitFor('a full window of statistics', async () => (await newestReportAt(engine)) > started + 6000);
    const rates = (await engine.handlers.getSnapshot({})).rates;
    assert.ok(rates, 'a cluster total');
    // The simulated cluster's own rates, whatever the speed-up: each report covers one 5 s period of its node's
    // timer (sim time), and the instance counts come from the configuration, not from arrivals per real second.
    const expectedReads = STEADY_RATES.readsPerSec;
    const expectedWrites = STEADY_RATES.writesPerSec;
    const near = (actual: number, expected: number, what: string): void =>
      assert.ok(Math.abs(actual - expected) <= expected * 0.2, `${what}: ${actual} vs expected ${expected}`);
    near(rates.reads, expectedReads, 'cluster reads/s');
    near(rates.writes, expectedWrites, 'cluster writes/s');
    near(rates.transactions, STEADY_RATES.transPerSec, 'cluster transactions/s');
    // LQH: every read once, every write on each of the 2 replicas.
    near(rates.operations, expectedReads + expectedWrites * 2, 'cluster LQH operations/s');

    const nodes = watch.current?.nodes.filter((n) => n.type === 'NDB') ?? [];
    assert.equal(nodes.length, 4);
    for (const n of nodes) {
      assert.ok(n.rates, `node ${n.nodeId} has rates`);
      near(n.rates.reads, expectedReads / 4, `node ${n.nodeId} reads/s`);
      assert.equal(n.rates.windowMs, 5000);
    }
    const history = await engine.handlers.getHistory({ metrics: ['reads', 'operations'], nodeIds: nodes.map((n) => n.nodeId), maxPoints: 4 });
    assert.ok(history.at.length <= 4);
    assert.equal(history.series.length, 2 + 2 * nodes.length);
  } finally {
    watch.unsubscribe();
    await engine.close();
  }
});
