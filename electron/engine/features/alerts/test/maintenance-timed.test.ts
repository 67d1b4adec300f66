import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createEngine } from '../../../create-engine.js';
import { waitFor } from '../../../test/helpers.js';
import { PolledCluster, dataMemoryEvent as memory } from '../../../test/tracker-fixture.js';

test('a timed maintenance window closes on the first tick past its duration; what it silenced and is still on is raised then', () => {
  const cluster = new PolledCluster(4);
  const { tracker } = cluster;
  cluster.poll(0);
  tracker.apply({ kind: 'maintenance', t: 1000, op: 'start', windowId: 'mw-1', reason: 'disk', silence: ['memory-high', 'memory-critical'], until: 61_000 });
  // Node 1 fills and stays full; node 3 fills and is over again within the window.
  tracker.apply({ kind: 'event', t: 2000, event: memory(1, 2000, 95) });
  tracker.apply({ kind: 'event', t: 2000, event: memory(3, 2000, 85) });
  tracker.apply({ kind: 'event', t: 3000, event: memory(3, 3000, 10) });
  tracker.apply({ kind: 'event', t: 40_000, event: memory(3, 40_000, 10) });
  tracker.apply({ kind: 'tick', t: 60_999 });
  assert.deepEqual(tracker.snapshot().alerts, [], 'nothing raised while the window is open');
  assert.equal(tracker.maintenance.get('mw-1')?.end, null);
  tracker.apply({ kind: 'tick', t: 61_500 });
  assert.equal(tracker.maintenance.get('mw-1')?.end, 61_000, 'closed at its end, by the tick past it');
  const raised = tracker.snapshot().alerts.map((a) => [a.kind, a.nodeId, a.at, a.message]);
  assert.deepEqual(raised.map(([kind, node, at]) => [kind, node, at]), [['memory-critical', 1, 61_000]]);
  for (const [, , , message] of raised) assert.match(String(message), /\(still so after maintenance\)$/);
  const history = tracker.alertHistory().entries;
  assert.deepEqual(history.filter((e) => e.silencedBy === 'mw-1').map((e) => [e.kind, e.nodeId, e.clearedAt !== null]).sort(), [['memory-critical', 1, true], ['memory-high', 3, true]]);
});

test('the engine\'s own ticks close a timed window and raise what is still on', async () => {
  const engine = await createEngine({ host: 'serve', pollIntervalMs: 250, simulator: { scenario: 'idle', dataNodes: 4, speed: 16, sql: false } });
  const sim = engine.simulator;
  assert.ok(sim);
  try {
    await waitFor('four data nodes STARTED', async () => (await engine.handlers.getSnapshot({})).nodes.filter((n) => n.type === 'NDB' && n.status === 'STARTED').length === 4, 30_000);
    // Long enough for the crash to be seen inside it on a busy machine; the test waits on conditions, not on it.
    const window = await engine.handlers.startMaintenance({ silence: ['node-down'], durationMs: 5000, reason: 'test' });
    sim.model.failNode(3, { autoRestart: false });
    const silenced = await waitFor('node-down silenced', async () => (await engine.handlers.getAlertHistory({})).entries.find((e) => e.kind === 'node-down'));
    assert.equal(silenced.silencedBy, window.id);
    const alert = await waitFor('the window over and node-down raised', async () => (await engine.handlers.getSnapshot({})).alerts.find((a) => a.kind === 'node-down'), 20_000);
    assert.match(alert.message, /\(still so after maintenance\)$/);
    const closed = (await engine.handlers.listMaintenance({})).find((w) => w.id === window.id);
    assert.equal(closed?.end, window.until, 'closed by a tick, at its end');
  } finally {
    await engine.close();
  }
});
