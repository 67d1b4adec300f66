import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AlertKind } from '../../../../contract/schemas/events.js';
import { MAX_MAINTENANCE_MS, MAX_OPEN_MAINTENANCE_WINDOWS } from '../../../../contract/schemas/maintenance.js';
import type { MaintenanceInput } from '../../../cluster/rooms/maintenance-room.js';
import { createEngine } from '../../../create-engine.js';
import { waitFor } from '../../../test/helpers.js';
import { PolledCluster, dataMemoryEvent as memory } from '../../../test/tracker-fixture.js';

test('a timed maintenance window closes on the first tick past its duration; what it silenced and is still on is raised then', () => {
  const cluster = new PolledCluster(4);
  const { tracker } = cluster;
  cluster.poll(0);
  // Without silenceCritical: an input recorded before windows let criticals through by default; its replay silences
  // them as the live session did (memory-critical below).
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
    const window = await engine.handlers.startMaintenance({ silence: ['node-down'], silenceCritical: true, durationMs: 5000, reason: 'test' });
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

// Issue 35 item 1: a window silenced every kind, critical included, and nothing bounded how many or how long.
test('a window lets critical alerts through unless opened with silenceCritical; the history keeps every window event', () => {
  const cluster = new PolledCluster(4);
  const { tracker } = cluster;
  cluster.poll(0);
  const memoryKinds: AlertKind[] = ['memory-high', 'memory-critical'];
  tracker.apply({ kind: 'maintenance', t: 1000, op: 'start', windowId: 'mw-1', reason: 'disk', silence: memoryKinds, until: 100_000, silenceCritical: false, by: 'alice' });
  tracker.apply({ kind: 'event', t: 2000, event: memory(1, 2000, 85) });
  tracker.apply({ kind: 'event', t: 2000, event: memory(2, 2000, 95) });
  assert.deepEqual(tracker.snapshot().alerts.map((a) => [a.kind, a.nodeId]), [['memory-critical', 2]], 'the critical one is a banner, the warning is not');
  assert.deepEqual(tracker.alertHistory().entries.map((e) => [e.kind, e.silencedBy]).sort(), [['memory-critical', null], ['memory-high', 'mw-1']]);

  tracker.apply({ kind: 'maintenance', t: 3000, op: 'start', windowId: 'mw-2', reason: 'swap node 3', silence: memoryKinds, until: 50_000, silenceCritical: true, by: 'bob' });
  tracker.apply({ kind: 'event', t: 4000, event: memory(3, 4000, 95) });
  assert.deepEqual(tracker.snapshot().alerts.map((a) => [a.kind, a.nodeId]), [['memory-critical', 2]], 'node 3 silenced: its window said so');
  assert.ok(tracker.alertHistory().entries.some((e) => e.severity === 'critical' && e.silencedBy === 'mw-2'), 'in the history, marked with its window');
  assert.deepEqual(tracker.maintenance.list().map((w) => [w.id, w.silenceCritical, w.openedBy]), [['mw-1', false, 'alice'], ['mw-2', true, 'bob']]);

  tracker.apply({ kind: 'maintenance', t: 5000, op: 'extend', windowId: 'mw-2', until: 70_000, by: 'bob' });
  tracker.apply({ kind: 'tick', t: 60_000 });
  assert.equal(tracker.maintenance.get('mw-2')?.end, null, 'extended past 50 s');
  tracker.apply({ kind: 'maintenance', t: 65_000, op: 'stop', windowId: 'mw-1', by: 'carol' });
  tracker.apply({ kind: 'tick', t: 70_500 });
  assert.deepEqual(
    tracker.alertHistory().maintenance.map((e) => [e.windowId, e.what, e.at, e.by, e.until, e.silenceCritical]),
    [
      ['mw-1', 'opened', 1000, 'alice', 100_000, false],
      ['mw-2', 'opened', 3000, 'bob', 50_000, true],
      ['mw-2', 'extended', 5000, 'bob', 70_000, true],
      ['mw-1', 'closed', 65_000, 'carol', 100_000, false],
      ['mw-2', 'expired', 70_000, null, 70_000, true],
    ],
  );
  assert.deepEqual(tracker.counters().maintenance, { opened: 2, extended: 1, closed: 1, expired: 1 });
  assert.ok(tracker.snapshot().alerts.some((a) => a.kind === 'memory-critical' && /after maintenance/.test(a.message)), 'raised once its window ran out');
});

test(`at most ${MAX_OPEN_MAINTENANCE_WINDOWS} windows open, none longer than ${MAX_MAINTENANCE_MS / 3600_000} h, extensions included; a recording is held to the same`, () => {
  const cluster = new PolledCluster(2);
  const { tracker } = cluster;
  cluster.poll(0);
  const start = (i: number, until: number): MaintenanceInput => ({ kind: 'maintenance', t: 1000, op: 'start', windowId: `mw-${i}`, reason: 'r', silence: ['memory-high'], until, silenceCritical: false });
  for (let i = 1; i <= MAX_OPEN_MAINTENANCE_WINDOWS; i += 1) tracker.apply(start(i, 2000));
  const over = tracker.maintenance.check(start(99, 2000));
  assert.equal(over?.code, 'CONFLICT');
  assert.match(String(over?.message), new RegExp(`^${MAX_OPEN_MAINTENANCE_WINDOWS} maintenance windows are open, the most at once: end one before opening another$`));
  // A recording (or a replay) that holds more is held to the bound too.
  tracker.apply(start(99, 2000));
  assert.equal(tracker.maintenance.get('mw-99'), undefined);
  tracker.apply({ kind: 'tick', t: 2000 });
  assert.equal(tracker.maintenance.check(start(99, 2000)), null, 'once they ran out, another may open');

  const long = tracker.maintenance.check(start(100, 1000 + MAX_MAINTENANCE_MS + 1));
  assert.equal(long?.code, 'BAD_REQUEST');
  assert.match(String(long?.message), /would last more than 24 h, the longest one may/);
  tracker.apply(start(100, 1000 + MAX_MAINTENANCE_MS));
  assert.ok(tracker.maintenance.get('mw-100'), 'exactly the bound is fine');
  const extended = tracker.maintenance.check({ kind: 'maintenance', t: 5000, op: 'extend', windowId: 'mw-100', until: 1000 + MAX_MAINTENANCE_MS + 1 });
  assert.equal(extended?.code, 'BAD_REQUEST');
  assert.match(String(extended?.message), /^maintenance window mw-100, extended, would last more than 24 h/);
});
