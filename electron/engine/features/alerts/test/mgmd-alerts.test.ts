import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Alert } from '../../../../contract/schemas/events.js';
import type { NodeState } from '../../../../../native-mgm/index.js';
import { ClusterTracker } from '../../../cluster/cluster-tracker.js';
import { FAILOVER_SETTLE_MS } from '../../../cluster/rooms/connection-room.js';
import { FLAP_WINDOW_MS } from '../../../cluster/rooms/alerts/mgmd-alerts.js';
import type { ConnectionInput } from '../../../cluster/tracker-input.js';
import { createEngine } from '../../../create-engine.js';
import { PushWatcher, waitFor } from '../../../test/helpers.js';

/** Two data nodes and management servers 3 and 4. */
function states(mgmdDown: number[] = []): NodeState[] {
  return [1, 2, 3, 4].map((nodeId): NodeState => {
    const type = nodeId <= 2 ? 'NDB' : 'MGM';
    const status = mgmdDown.includes(nodeId) ? 'NO_CONTACT' : type === 'NDB' ? 'STARTED' : 'CONNECTED';
    return { nodeId, type, status, statusRaw: status, startPhase: 0, nodeGroup: type === 'NDB' ? 0 : null, version: '9.3.0', versionRaw: 0x90300, mysqlVersion: '9.3.0', mysqlVersionRaw: 0x90300, address: '127.0.0.1', connectCount: 1, dynamicId: nodeId, isSingleUser: false, isMaster: nodeId === 1, extra: {} };
  });
}

function connection(status: ConnectionInput['status'], nodeId: number, since: number, failovers: number): ConnectionInput {
  return { status, connectstring: 'a:1186,b:1186', mgmd: { host: nodeId === 3 ? 'a' : 'b', port: 1186, nodeId, since }, serverVersion: '9.3.0', failovers, lastError: null, retryAt: null, eventStream: { status: 'live' } };
}

function tracker(): { t: ClusterTracker; raised: Alert[] } {
  const raised: Alert[] = [];
  const t = new ClusterTracker('c1', 'test', { connectstring: 'a:1186,b:1186', mode: 'live', historySeconds: 600 }, { changed: () => undefined, events: () => undefined, alert: (a) => raised.push(a), history: () => undefined });
  return { t, raised };
}

test('the management server ndbtop does not use going down is a warning; going down three times in two minutes is flapping, named once', () => {
  const { t, raised } = tracker();
  t.apply({ kind: 'connection', t: 1000, connection: connection('live', 3, 1000, 0) });
  t.apply({ kind: 'status', t: 1000, requestedAt: 990, nodes: states() });
  t.apply({ kind: 'status', t: 2000, requestedAt: 1990, nodes: states([4]) });
  assert.deepEqual(raised.map((a) => [a.kind, a.severity, a.nodeId]), [['mgmd-down', 'warning', 4]]);
  // Down and up every ten seconds.
  for (let i = 0; i < 5; i++) t.apply({ kind: 'status', t: 12_000 + i * 10_000, requestedAt: 0, nodes: states(i % 2 === 1 ? [4] : []) });
  assert.deepEqual(raised.map((a) => a.kind), ['mgmd-down', 'mgmd-down', 'mgmd-flapping']);
  const flapping = t.snapshot().alerts.find((a) => a.kind === 'mgmd-flapping');
  assert.match(flapping?.message ?? '', /Management server 4 is flapping: down 3 times in 40 s/);
  assert.equal(t.snapshot().alerts.filter((a) => a.resolvedAt === null).map((a) => a.kind).join(), 'mgmd-flapping', 'one alert while it flaps');
  // Stable for the window: over.
  for (let at = 53_000; at < 42_000 + FLAP_WINDOW_MS; at += 1000) t.apply({ kind: 'tick', t: at });
  assert.equal(t.snapshot().alerts.find((a) => a.kind === 'mgmd-flapping')?.resolvedAt, null, 'not before it stayed up for the window');
  t.apply({ kind: 'tick', t: 42_000 + FLAP_WINDOW_MS });
  assert.notEqual(t.snapshot().alerts.find((a) => a.kind === 'mgmd-flapping')?.resolvedAt, null);
});

test('"failed over" settles to live once the new session ran a minute with every management server up', () => {
  const { t } = tracker();
  t.apply({ kind: 'connection', t: 1000, connection: connection('live', 3, 1000, 0) });
  t.apply({ kind: 'status', t: 1000, requestedAt: 990, nodes: states() });
  t.apply({ kind: 'connection', t: 5000, connection: connection('reconnecting', 3, 1000, 0) });
  t.apply({ kind: 'connection', t: 6000, connection: connection('failed-over', 4, 6000, 1) });
  t.apply({ kind: 'status', t: 6000, requestedAt: 5990, nodes: states([3]) });
  for (let at = 7000; at <= 6000 + FAILOVER_SETTLE_MS + 5000; at += 1000) t.apply({ kind: 'tick', t: at });
  assert.equal(t.snapshot().connection.status, 'failed-over', 'not while management server 3 is down');
  t.apply({ kind: 'status', t: 80_000, requestedAt: 79_990, nodes: states() });
  t.apply({ kind: 'tick', t: 81_000 });
  assert.equal(t.snapshot().connection.status, 'live');
  assert.equal(t.snapshot().connection.failovers, 1, 'the failover is still counted');
  // The monitor keeps saying failed-over on its next change; it stays settled.
  t.apply({ kind: 'connection', t: 82_000, connection: connection('failed-over', 4, 6000, 1) });
  assert.equal(t.snapshot().connection.status, 'live');
});

test('stopping the management server ndbtop is not connected to raises a warning that clears when it is back', async () => {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', mgmNodes: 2, dataNodes: 2, speed: 5 }, pollIntervalMs: 500 });
  const sim = engine.simulator;
  assert.ok(sim);
  const watch = new PushWatcher(engine);
  try {
    await waitFor('live on mgmd 1', () => watch.current?.connection.status === 'live' && watch.current.connection.mgmd?.nodeId === 1 && watch.current.nodes.some((n) => n.nodeId === 2 && n.type === 'MGM' && n.status === 'CONNECTED'));
    await sim.stopMgmd(2);
    const down = await waitFor('mgmd-down alert for 2', () => watch.current?.alerts.find((a) => a.kind === 'mgmd-down' && a.nodeId === 2));
    assert.equal(down.severity, 'warning');
    assert.equal(watch.current?.connection.status, 'live');
    await sim.startMgmd(2);
    await waitFor('resolved once it is back', () => watch.current?.alerts.find((a) => a.kind === 'mgmd-down')?.resolvedAt);
  } finally {
    watch.unsubscribe();
    await engine.close();
  }
});
