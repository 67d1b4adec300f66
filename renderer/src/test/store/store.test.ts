import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAppStore } from '../../store/store.js';
import { event, nodeView, snapshot } from '../fixtures.js';

function loaded(ids = [1, 2, 3, 4, 5, 6, 7]) {
  const store = createAppStore();
  store.receive({ type: 'snapshot', version: 10, snapshot: snapshot(ids.map((id) => nodeView(id))) });
  return store;
}

test('a delta for node 5 replaces node 5 and keeps every other node object as it was', () => {
  const store = loaded();
  const before = store.getState().shown.nodes;
  const outcome = store.receive({ type: 'delta', delta: { clusterId: 'c1', baseVersion: 10, version: 11, nodes: [nodeView(5, { status: 'NO_CONTACT' })] } });
  assert.equal(outcome, 'applied');
  const after = store.getState().shown.nodes;
  assert.notEqual(after, before);
  assert.equal(after.get(5)?.status, 'NO_CONTACT');
  assert.equal(after.get(7), before.get(7));
  assert.equal(after.get(1), before.get(1));
  assert.equal(store.getState().live.version, 11);
});

test('a node sent again unchanged keeps its object, and an unchanged delta keeps the map', () => {
  const store = loaded();
  const before = store.getState().shown.nodes;
  store.receive({ type: 'delta', delta: { clusterId: 'c1', baseVersion: 10, version: 11, nodes: [nodeView(5)] } });
  assert.equal(store.getState().shown.nodes, before);
  store.receive({ type: 'snapshot', version: 12, snapshot: snapshot([1, 2, 3, 4, 5, 6, 7].map((id) => nodeView(id))) });
  assert.equal(store.getState().shown.nodes, before);
});

test('a delta that does not start from the current version is a gap; an old one is ignored', () => {
  const store = loaded();
  assert.equal(store.receive({ type: 'delta', delta: { clusterId: 'c1', baseVersion: 11, version: 12, nodes: [nodeView(5, { status: 'NO_CONTACT' })] } }), 'gap');
  assert.equal(store.getState().live.nodes.get(5)?.status, 'STARTED');
  assert.equal(store.receive({ type: 'delta', delta: { clusterId: 'c1', baseVersion: 9, version: 10 } }), 'ignored');
  assert.equal(store.getState().live.version, 10);
});

test('before any snapshot every delta is a gap; after getSnapshot (no version) the next delta is adopted', () => {
  const store = createAppStore();
  assert.equal(store.receive({ type: 'delta', delta: { clusterId: 'c1', baseVersion: 3, version: 4 } }), 'gap');
  store.loadSnapshot(snapshot([nodeView(1)]));
  assert.equal(store.getState().live.version, null);
  assert.equal(store.receive({ type: 'delta', delta: { clusterId: 'c1', baseVersion: 40, version: 41, sampledAt: 5000 } }), 'applied');
  assert.equal(store.getState().live.version, 41);
  assert.equal(store.getState().shown.sampledAt, 5000);
  assert.equal(store.receive({ type: 'delta', delta: { clusterId: 'c1', baseVersion: 40, version: 42 } }), 'gap');
});

test('removed nodes leave the map; pushes of another cluster are not shown', () => {
  const store = loaded();
  store.receive({ type: 'delta', delta: { clusterId: 'c1', baseVersion: 10, version: 11, removedNodeIds: [7] } });
  assert.deepEqual([...store.getState().shown.nodes.keys()], [1, 2, 3, 4, 5, 6]);
  assert.equal(store.receive({ type: 'snapshot', version: 1, snapshot: snapshot([nodeView(9)], { clusterId: 'other' }) }), 'ignored');
  assert.equal(store.receive({ type: 'events', clusterId: 'other', events: [event(1)] }), 'ignored');
  assert.equal(store.getState().shown.clusterId, 'c1');
});

test('pause freezes what is shown while the live data keeps changing; resume shows all of it at once', () => {
  const store = loaded();
  const frozen = store.getState().shown;
  store.setPaused(true, 5000);
  store.receive({ type: 'delta', delta: { clusterId: 'c1', baseVersion: 10, version: 11, nodes: [nodeView(3, { status: 'NOT_STARTED' })] } });
  store.receive({ type: 'events', clusterId: 'c1', events: [event(1), event(2)] });
  store.receive({ type: 'history', clusterId: 'c1', points: [{ at: 6000, values: { 'node.1.transactions': 50 } }] });
  assert.equal(store.getState().shown, frozen);
  assert.equal(store.getState().live.nodes.get(3)?.status, 'NOT_STARTED');
  assert.equal(store.getState().live.events.length, 2);
  assert.equal(store.getState().ui.pausedAt, 5000);
  store.setPaused(false);
  const shown = store.getState().shown;
  assert.equal(shown.nodes.get(3)?.status, 'NOT_STARTED');
  assert.equal(shown.events.length, 2);
  assert.equal(shown.historyUntil, 6000);
  assert.equal(store.getState().ui.pausedAt, null);
});

test('events are kept once each, oldest first, and an older page is merged in', () => {
  const store = loaded();
  store.receive({ type: 'events', clusterId: 'c1', events: [event(5), event(6)] });
  store.receive({ type: 'events', clusterId: 'c1', events: [event(6), event(7)] });
  store.loadEvents([event(3), event(4), event(5)]);
  assert.deepEqual(
    store.getState().shown.events.map((e) => e.seq),
    [3, 4, 5, 6, 7],
  );
});

test('an alert push updates the alert with the same id', () => {
  const store = loaded();
  const alert = { id: 'a1', kind: 'node-down' as const, severity: 'critical' as const, at: 1, nodeId: 3, message: 'node 3 down', acknowledged: false, resolvedAt: null };
  store.receive({ type: 'alert', clusterId: 'c1', alert });
  store.receive({ type: 'alert', clusterId: 'c1', alert: { ...alert, acknowledged: true } });
  assert.deepEqual(
    store.getState().shown.alerts.map((a) => [a.id, a.acknowledged]),
    [['a1', true]],
  );
});

test('live history points feed the sparkline ring; other series are not kept', () => {
  const store = loaded();
  store.receive({ type: 'history', clusterId: 'c1', points: [1, 2, 3].map((s) => ({ at: s * 1000, values: { 'node.5.transactions': s * 10, 'node.5.reads': 1, 'cluster.reads': 2 } })) });
  const { ring, shown } = store.getState();
  assert.deepEqual(ring.series('node.5.transactions', 0, shown.historyUntil).values, [10, 20, 30]);
  assert.deepEqual(ring.series('node.5.reads', 0, 5000).values, [NaN, NaN, NaN]);
  assert.equal(shown.historyVersion, 1);
});

test('a delta that repeats unchanged nodes keeps their objects (no card re-renders); a real change lands', () => {
  const store = loaded();
  const before = store.getState().shown.nodes;
  const repolled = [1, 2, 3, 4, 5, 6, 7].map((id) => nodeView(id));
  store.receive({ type: 'delta', delta: { clusterId: 'c1', baseVersion: 10, version: 11, nodes: repolled, sampledAt: 999_999 } });
  assert.equal(store.getState().shown.nodes, before, 'same map, so no card selector fires');
  assert.equal(store.getState().shown.sampledAt, 999_999, 'the freshness the header shows still moves');
  store.receive({ type: 'delta', delta: { clusterId: 'c1', baseVersion: 11, version: 12, nodes: [nodeView(3, { connectCount: 9 })] } });
  assert.equal(store.getState().shown.nodes.get(3)?.connectCount, 9, 'a real change still lands');
});

test('the configuration generation comes with the snapshot and moves with a delta (the Configuration view asks again then)', () => {
  const store = createAppStore();
  store.receive({ type: 'snapshot', version: 1, snapshot: snapshot([nodeView(2)], { configGeneration: 1 }) });
  assert.equal(store.getState().shown.configGeneration, 1);
  store.receive({ type: 'delta', delta: { clusterId: 'c1', baseVersion: 1, version: 2, nodes: [nodeView(2, { status: 'NO_CONTACT' })] } });
  assert.equal(store.getState().shown.configGeneration, 1, 'a delta without it keeps it');
  store.receive({ type: 'delta', delta: { clusterId: 'c1', baseVersion: 2, version: 3, configGeneration: 2 } });
  assert.equal(store.getState().shown.configGeneration, 2);
});
