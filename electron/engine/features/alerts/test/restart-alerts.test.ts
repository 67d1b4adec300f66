import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Alert } from '../../../../contract/schemas/events.js';
import type { NodeStatus } from '../../../../contract/schemas/node.js';
import type { NodeState } from '../../../../../native-mgm/index.js';
import type { RestartRow } from '../../../../../ndbinfo/client/rows.js';
import { MgmClient } from '../../../../../native-mgm/client/mgm-client.js';
import { ClusterTracker } from '../../../cluster/cluster-tracker.js';
import { createEngine } from '../../../create-engine.js';
import { PushWatcher, waitFor } from '../../../test/helpers.js';

/** Four data nodes in two groups and a management server; node 3 as given. */
function states(node3: NodeStatus = 'STARTED', phase = 0): NodeState[] {
  return [1, 2, 3, 4, 5].map((nodeId): NodeState => {
    const type = nodeId <= 4 ? 'NDB' : 'MGM';
    const status = nodeId === 3 ? node3 : type === 'NDB' ? 'STARTED' : 'CONNECTED';
    return { nodeId, type, status, statusRaw: status, startPhase: nodeId === 3 ? phase : 0, nodeGroup: type === 'NDB' ? Math.floor((nodeId - 1) / 2) : null, version: '9.3.0', versionRaw: 0x90300, mysqlVersion: '9.3.0', mysqlVersionRaw: 0x90300, address: '127.0.0.1', connectCount: 1, dynamicId: nodeId, isSingleUser: false, isMaster: nodeId === 1, extra: {} };
  });
}

function tracker(): { t: ClusterTracker; raised: Alert[]; poll: (at: number, status?: NodeStatus, phase?: number) => void } {
  const raised: Alert[] = [];
  const t = new ClusterTracker('c1', 'test', { connectstring: 'x', mode: 'simulated', historySeconds: 600 }, { changed: () => undefined, events: () => undefined, alert: (a) => raised.push(a), history: () => undefined });
  const poll = (at: number, status?: NodeStatus, phase?: number): void => t.apply({ kind: 'status', t: at, requestedAt: at - 10, nodes: states(status, phase) });
  poll(1000);
  return { t, raised, poll };
}

const active = (t: ClusterTracker, kind: Alert['kind']): Alert[] => t.snapshot().alerts.filter((a) => a.kind === kind && a.resolvedAt === null);

/** A restart of node 3 someone asked for: down, then starting from `from` to `to` (phases 1..5), then up. */
function restart({ t, poll }: ReturnType<typeof tracker>, from: number, to: number): void {
  t.apply({ kind: 'planned', t: from - 2000, nodeIds: [3], planned: true, by: 'rolling restart' });
  poll(from - 1000, 'NO_CONTACT');
  for (let phase = 1; phase <= 5; phase++) poll(from + ((to - from) * (phase - 1)) / 5, 'STARTING', phase);
  poll(to, 'STARTED');
}

test('a start much longer than the usual raises restart-slow, which ends when the node is up; none without a usual length', () => {
  const c = tracker();
  // ndbtop has timed no start yet: it cannot tell slow from usual.
  restart(c, 10_000, 200_000);
  assert.deepEqual(c.raised, []);
  const timed = tracker();
  restart(timed, 10_000, 40_000);
  timed.t.apply({ kind: 'planned', t: 100_000, nodeIds: [3], planned: true, by: 'rolling restart' });
  timed.poll(101_000, 'NO_CONTACT');
  timed.poll(102_000, 'STARTING', 1);
  // 30 s usual: "much longer" is past twice that (and at least 10 s over).
  timed.poll(161_000, 'STARTING', 3);
  assert.deepEqual(active(timed.t, 'restart-slow'), [], 'at 59 s, not yet');
  timed.poll(163_000, 'STARTING', 3);
  const [slow] = active(timed.t, 'restart-slow');
  assert.ok(slow, 'raised past 60 s');
  assert.equal(slow.severity, 'warning');
  assert.equal(slow.nodeId, 3);
  assert.equal(slow.message, 'Node 3 still starting after 1 min 01 s: much longer than the 30 s its starts usually take');
  assert.deepEqual(timed.raised.map((a) => a.kind), ['restart-slow'], 'a planned restart raises nothing else');
  timed.poll(170_000, 'STARTED');
  assert.deepEqual(active(timed.t, 'restart-slow'), []);
});

/** restart_info's row for node 3: a completed restart of `totalSecs`, or one under way. */
function restartInfo(t: number, status: 'Restart completed' | 'Copy fragments ongoing', totalSecs: number) {
  const row: RestartRow = { nodeId: 3, status, statusInt: 0, statusName: status === 'Restart completed' ? 'RESTART_COMPLETED' : 'COPY_FRAGMENTS_STARTED', phases: {}, totalSecs };
  return { kind: 'ndbinfo' as const, t, sample: { reading: 'restarts' as const, sqlNode: 'x', at: t, durationMs: 1, rows: [row] } };
}

test("before ndbtop timed a start, the node's previous restart by restart_info is the usual length", () => {
  const c = tracker();
  c.t.apply({ kind: 'ndbinfo-link', t: 1000, state: { kind: 'up', at: 1000, sqlNode: 'mysql://root@127.0.0.1:3306', serverVersion: '8.4.0', tls: false, tables: [], missing: [], failovers: 0, failedOverFrom: null } });
  c.t.apply(restartInfo(1500, 'Restart completed', 40));
  c.poll(2000, 'NO_CONTACT');
  c.poll(3000, 'STARTING', 1);
  c.t.apply(restartInfo(3500, 'Copy fragments ongoing', 0));
  // 40 s before: "much longer" is past 80 s (twice, and at least 10 s over).
  c.poll(80_000, 'STARTING', 4);
  assert.deepEqual(active(c.t, 'restart-slow'), []);
  c.poll(85_000, 'STARTING', 4);
  const [slow] = active(c.t, 'restart-slow');
  assert.equal(slow?.message, 'Node 3 still starting after 1 min 22 s: much longer than the 40 s its previous restart took');
  c.poll(90_000, 'STARTED');
  assert.deepEqual(active(c.t, 'restart-slow'), []);
});

test('a start that falls back down is restart-failed (critical) even when the restart was planned; over once the node is up', () => {
  const c = tracker();
  c.t.apply({ kind: 'planned', t: 1500, nodeIds: [3], planned: true, by: 'rolling restart' });
  c.poll(2000, 'NO_CONTACT');
  c.poll(3000, 'STARTING', 4);
  c.poll(4000, 'NO_CONTACT');
  const [failed] = active(c.t, 'restart-failed');
  assert.ok(failed, JSON.stringify(c.raised));
  assert.equal(failed.severity, 'critical');
  assert.equal(failed.message, "Node 3's start failed: it fell from STARTING (copying the dictionary, start phase 4 done) to NO_CONTACT");
  assert.ok(!c.raised.some((a) => a.kind === 'node-down'), 'not a node-down: the node never came up');
  c.poll(5000, 'STARTING', 1);
  assert.equal(active(c.t, 'restart-failed').length, 1, 'starting again is not yet up');
  // Its words follow the node, as node-down's do, and keep where the start failed.
  assert.equal(active(c.t, 'restart-failed')[0]?.message, "Node 3's start failed: it fell from STARTING (copying the dictionary, start phase 4 done) to NO_CONTACT (now STARTING (joining the cluster, start phase 1 done))");
  c.poll(6000, 'NO_CONTACT');
  assert.equal(active(c.t, 'restart-failed')[0]?.message, "Node 3's start failed: it fell from STARTING (joining the cluster, start phase 1 done) to NO_CONTACT", 'failing again: the latest fall');
  assert.equal(c.raised.filter((a) => a.kind === 'restart-failed').length, 1, 'one alert for one node not yet up');
  c.poll(7000, 'NOT_STARTED');
  assert.equal(active(c.t, 'restart-failed')[0]?.message, "Node 3's start failed: it fell from STARTING (joining the cluster, start phase 1 done) to NO_CONTACT (now NOT_STARTED)");
  c.poll(8000, 'STARTING', 2);
  c.poll(9000, 'STARTED');
  assert.deepEqual(active(c.t, 'restart-failed'), []);
  // A stop asked for while it started goes through SHUTTING_DOWN: no fall.
  c.poll(10_000, 'NO_CONTACT');
  c.poll(11_000, 'STARTING', 2);
  c.poll(12_000, 'SHUTTING_DOWN');
  assert.deepEqual(active(c.t, 'restart-failed'), []);
});

test('against the simulator: a restart stalled in a start phase is restart-slow, and its crash there restart-failed', async () => {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', dataNodes: 4, speed: 10 }, pollIntervalMs: 300 });
  const sim = engine.simulator;
  assert.ok(sim);
  const watch = new PushWatcher(engine);
  const other = new MgmClient({ connectstring: sim.connectstring });
  const alert = (kind: Alert['kind']): Alert | undefined => watch.current?.alerts.find((a) => a.kind === kind && a.nodeId === 3 && a.resolvedAt === null);
  try {
    await waitFor('node 3 STARTED, event stream live', () => watch.node(3)?.status === 'STARTED' && watch.current?.connection.eventStream.status === 'live');
    // A first restart, as ndb_mgm would order it: the usual length.
    await other.restart([3]);
    await waitFor('node 3 back after its first restart', () => watch.node(3)?.status === 'STARTED' && (watch.node(3)?.connectCount ?? 0) >= 2, 120_000);
    sim.model.stalledStarts.set(3, 4);
    await other.restart([3]);
    const slow = await waitFor('restart-slow for node 3', () => alert('restart-slow'), 120_000);
    assert.match(slow.message, /^Node 3 still starting after .+: much longer than the .+ its starts usually take$/);
    assert.equal(watch.node(3)?.status, 'STARTING');
    sim.model.failNode(3, { autoRestart: false });
    const failed = await waitFor('restart-failed for node 3', () => alert('restart-failed'), 60_000);
    assert.equal(failed.severity, 'critical');
    assert.ok(!alert('restart-slow'), 'no longer starting: no longer slow');
    assert.ok(!watch.current?.alerts.some((a) => a.kind === 'node-down'), 'an ordered restart that failed while starting is restart-failed, not node-down');
  } finally {
    other.close();
    watch.unsubscribe();
    await engine.close();
  }
});

test('a failed start says where it fell from as the node\'s one restart state: restart_info\'s phase when it is further on than the start phase', () => {
  const c = tracker();
  c.t.apply({ kind: 'ndbinfo-link', t: 1000, state: { kind: 'up', at: 1000, sqlNode: 'mysql://root@127.0.0.1:3306', serverVersion: '8.4.0', tls: false, tables: [], missing: [], failovers: 0, failedOverFrom: null } });
  c.poll(2000, 'NO_CONTACT');
  c.poll(3000, 'STARTING', 4);
  c.t.apply(restartInfo(3500, 'Copy fragments ongoing', 0));
  c.poll(4000, 'NO_CONTACT');
  assert.equal(active(c.t, 'restart-failed')[0]?.message, "Node 3's start failed: it fell from STARTING (copying data from live nodes, start phase 4 done) to NO_CONTACT");
  const node = c.t.snapshot().nodes.find((n) => n.nodeId === 3);
  assert.equal(node?.restartState?.state, 'down', 'down by the management server, whatever restart_info still reads');
});
