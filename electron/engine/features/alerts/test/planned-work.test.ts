import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Alert } from '../../../../contract/schemas/events.js';
import type { ClusterEvent, NodeState } from '../../../../../native-mgm/index.js';
import { MgmClient } from '../../../../../native-mgm/client/mgm-client.js';
import { ClusterTracker } from '../../../cluster/cluster-tracker.js';
import { createEngine } from '../../../create-engine.js';
import { alertsPushed, nodesRestarted, waitFor } from '../../../test/helpers.js';

/** Four data nodes in two groups, one management server. */
function states(down: number[] = []): NodeState[] {
  return [1, 2, 3, 4, 5].map((nodeId): NodeState => {
    const type = nodeId <= 4 ? 'NDB' : 'MGM';
    const status = down.includes(nodeId) ? 'NO_CONTACT' : type === 'NDB' ? 'STARTED' : 'CONNECTED';
    return { nodeId, type, status, statusRaw: status, startPhase: 0, nodeGroup: type === 'NDB' ? Math.floor((nodeId - 1) / 2) : null, version: '9.3.0', versionRaw: 0x90300, mysqlVersion: '9.3.0', mysqlVersionRaw: 0x90300, address: '127.0.0.1', connectCount: 1, dynamicId: nodeId, isSingleUser: false, isMaster: nodeId === 1, extra: {} };
  });
}

function tracker(): { t: ClusterTracker; raised: Alert[] } {
  const raised: Alert[] = [];
  const t = new ClusterTracker('c1', 'test', { connectstring: 'x', mode: 'simulated', historySeconds: 60 }, { changed: () => undefined, events: () => undefined, alert: (a) => raised.push(a), history: () => undefined });
  t.apply({ kind: 'status', t: 1000, requestedAt: 990, nodes: states() });
  return { t, raised };
}

function event(name: string, source: number, at: number, fields: Record<string, number>): ClusterEvent {
  return { typeId: 0, name, category: 'STARTUP', severity: 'INFO', sourceNodeId: source, receivedAt: at, fields, data: null, known: true, raw: {} } as unknown as ClusterEvent;
}

test('a restart a plan declared is progress even when the node just drops; the same drop undeclared is a failure', () => {
  const declared = tracker();
  declared.t.apply({ kind: 'planned', t: 1500, nodeIds: [3], planned: true, by: 'rolling restart' });
  declared.t.apply({ kind: 'status', t: 2000, requestedAt: 1990, nodes: states([3]) });
  declared.t.apply({ kind: 'status', t: 9000, requestedAt: 8990, nodes: states() });
  assert.deepEqual(declared.raised.map((a) => a.message), []);
  // Back up, the declaration is spent: the next drop of node 3 is a failure again.
  declared.t.apply({ kind: 'status', t: 10_000, requestedAt: 9990, nodes: states([3]) });
  assert.deepEqual(declared.raised.map((a) => a.kind).sort(), ['node-down', 'node-group-degraded']);

  const undeclared = tracker();
  undeclared.t.apply({ kind: 'status', t: 2000, requestedAt: 1990, nodes: states([3]) });
  assert.deepEqual(undeclared.raised.map((a) => a.kind).sort(), ['node-down', 'node-group-degraded']);
});

test('the server says who asked: a graceful restart raises nothing, a graceful plain stop degrades its group, a forced stop fails', () => {
  const restart = tracker();
  restart.t.apply({ kind: 'event', t: 2000, event: event('NDBStopStarted', 3, 2000, { stoptype: 0 }) });
  restart.t.apply({ kind: 'event', t: 2500, event: event('NDBStopCompleted', 3, 2500, { action: 3, signum: 0 }) });
  restart.t.apply({ kind: 'status', t: 3000, requestedAt: 2990, nodes: states([3]) });
  assert.deepEqual(restart.raised, []);

  const stop = tracker();
  stop.t.apply({ kind: 'event', t: 2000, event: event('NDBStopStarted', 3, 2000, { stoptype: 0 }) });
  assert.deepEqual(stop.raised.map((a) => a.message), [], 'until the server says whether it comes back');
  stop.t.apply({ kind: 'event', t: 2500, event: event('NDBStopCompleted', 3, 2500, { action: 0, signum: 0 }) });
  stop.t.apply({ kind: 'status', t: 3000, requestedAt: 2990, nodes: states([3]) });
  assert.deepEqual(stop.raised.map((a) => a.kind), ['node-group-degraded'], 'a plain stop on request: no node-down, but the group is degraded');

  const forced = tracker();
  forced.t.apply({ kind: 'event', t: 2000, event: event('NDBStopForced', 3, 2000, { action: 1, signum: 6, error: 2341, sphase: 0, extra: 0 }) });
  assert.deepEqual(forced.raised.map((a) => a.kind).sort(), ['node-down', 'node-group-degraded']);
});

test("a won arbitration after a restart someone asked for is no warning; after a failure it is; a lost one always is critical", () => {
  const planned = tracker();
  planned.t.apply({ kind: 'event', t: 2000, event: event('NDBStopStarted', 3, 2000, { stoptype: 0 }) });
  planned.t.apply({ kind: 'event', t: 2500, event: event('NDBStopCompleted', 3, 2500, { action: 3, signum: 0 }) });
  planned.t.apply({ kind: 'event', t: 2600, event: event('ArbitResult', 1, 2600, { code: 42, arbit_node: 5 }) });
  planned.t.apply({ kind: 'event', t: 2700, event: event('ArbitResult', 1, 2700, { code: 46, arbit_node: 5 }) });
  assert.equal(planned.raised.length, 0, JSON.stringify(planned.raised));
  planned.t.apply({ kind: 'event', t: 2800, event: event('ArbitResult', 1, 2800, { code: 41, arbit_node: 5 }) });
  assert.deepEqual(planned.raised.map((a) => [a.kind, a.severity]), [['arbitration', 'critical']]);

  const failed = tracker();
  failed.t.apply({ kind: 'status', t: 2000, requestedAt: 1990, nodes: states([3]) });
  failed.t.apply({ kind: 'event', t: 2600, event: event('ArbitResult', 1, 2600, { code: 42, arbit_node: 5 }) });
  assert.deepEqual(failed.raised.filter((a) => a.kind === 'arbitration').map((a) => a.severity), ['warning']);
});

test('a rolling restart under load raises no alert at all: every restart was asked for', async () => {
  const engine = await createEngine({ host: 'serve', pollIntervalMs: 500, simulator: { scenario: 'rolling-restart', dataNodes: 4, speed: 8 } });
  const raised = alertsPushed(engine);
  try {
    await waitFor('three data nodes restarted', async () => (await nodesRestarted(engine)) >= 3, 120_000);
    assert.deepEqual(raised.alerts.map((a) => a.message), []);
  } finally {
    raised.stop();
    await engine.close();
  }
});

test('another client stopping a node (not restarting it) degrades its group: that stays a warning', async () => {
  const engine = await createEngine({ host: 'serve', pollIntervalMs: 500, simulator: { scenario: 'idle', dataNodes: 4, speed: 10 } });
  const sim = engine.simulator;
  assert.ok(sim);
  const other = new MgmClient({ connectstring: sim.connectstring });
  try {
    await waitFor('four data nodes STARTED', async () => (await engine.handlers.getSnapshot({})).nodes.filter((n) => n.type === 'NDB' && n.status === 'STARTED').length === 4, 30_000);
    await other.stop([3]);
    const alerts = await waitFor('a degraded group', async () => {
      const a = (await engine.handlers.getSnapshot({})).alerts;
      return a.some((x) => x.kind === 'node-group-degraded') ? a : null;
    });
    assert.deepEqual(alerts.map((a) => a.kind), ['node-group-degraded']);
  } finally {
    other.close();
    await engine.close();
  }
});

test('a start phase read after a poll already saw the node up is from before it: no failure of a node that never went down', () => {
  const { t, raised } = tracker();
  t.apply({ kind: 'planned', t: 1500, nodeIds: [3], planned: true, by: 'rolling restart' });
  t.apply({ kind: 'event', t: 2000, event: event('NDBStopStarted', 3, 2000, { stoptype: 0 }) });
  t.apply({ kind: 'event', t: 2100, event: event('NDBStartStarted', 3, 2100, { version: 0x90300 }) });
  t.apply({ kind: 'event', t: 2500, event: event('StartPhaseCompleted', 3, 2500, { phase: 5, starttype: 4 }) });
  // The poll (its own session) answers STARTED before the event stream delivers the last phase and the completion.
  t.apply({ kind: 'status', t: 3000, requestedAt: 2990, nodes: states() });
  t.apply({ kind: 'event', t: 3010, event: event('StartPhaseCompleted', 3, 3010, { phase: 101, starttype: 4 }) });
  assert.equal(t.snapshot().nodes.find((n) => n.nodeId === 3)?.status, 'STARTED');
  t.apply({ kind: 'event', t: 3020, event: event('NDBStartCompleted', 3, 3020, { version: 0x90300 }) });
  assert.deepEqual(raised.map((a) => `${a.kind} ${a.message}`), []);
  // A real restart still shows: the node goes down first, then its phases.
  t.apply({ kind: 'event', t: 5000, event: event('NODE_FAILREP', 1, 5000, { failed_node: 3, failure_state: 0 }) });
  t.apply({ kind: 'event', t: 5100, event: event('StartPhaseCompleted', 3, 5100, { phase: 1, starttype: 4 }) });
  assert.equal(t.snapshot().nodes.find((n) => n.nodeId === 3)?.status, 'STARTING');
  assert.deepEqual(raised.map((a) => a.kind).sort(), ['node-down', 'node-group-degraded']);
});
