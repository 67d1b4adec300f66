import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../../../../../native-mgm/sim/index.js';
import { createEngine } from '../../../create-engine.js';
import { createReplayEngine } from '../../../recording/replay.js';
import { nodeGroups, safeToStop } from '../../../cluster/node-groups.js';
import { PushWatcher, waitFor } from '../../../test/helpers.js';

test('started while a data node is already down: its node group is DEGRADED from the first snapshot on', async (t) => {
  const sim = await startSimulator({ scenario: 'idle', dataNodes: 4 });
  t.after(() => sim.close());
  sim.model.failNode(3, { autoRestart: false });
  await waitFor('node 3 down in the simulator', () => sim.model.data.get(3)?.status === 'NO_CONTACT');
  const engine = await createEngine({ host: 'serve', clusters: [{ connectstring: sim.connectstring }], simulator: false, pollIntervalMs: 60_000 });
  t.after(() => engine.close());
  const watch = new PushWatcher(engine);
  t.after(() => watch.unsubscribe());
  await waitFor('the first status', () => watch.current?.nodes.some((n) => n.type === 'NDB'));
  const first = watch.states.find((s) => s.nodes.some((n) => n.type === 'NDB'))!;
  assert.equal(first.configGeneration, 1);
  assert.deepEqual(first.nodeGroups.find((g) => g.nodeGroup === 0), { nodeGroup: 0, nodeIds: [2, 3], live: 1, health: 'DEGRADED' });
  const down = first.nodes.find((n) => n.nodeId === 3)!;
  assert.equal(down.status, 'NO_CONTACT');
  assert.equal(down.nodeGroup, 0, 'the configured node group, not the placeholder');
  assert.deepEqual(down.configured, { hostname: '10.0.0.13', dataMemoryBytes: 2147483648, indexMemoryBytes: 67108864 });
  assert.equal(first.nodes.find((n) => n.nodeId === 2)!.safeToStop, false);
  assert.ok(!watch.states.some((s) => s.nodeGroups.some((g) => g.nodeGroup === 0 && g.health === 'OK')), 'never shown OK');
  assert.ok(first.alerts.some((a) => a.kind === 'node-group-degraded'));
});

test('NoOfReplicas: a group with fewer members than replicas is not OK, and none of it is safe to stop', () => {
  const members = [{ nodeId: 2, status: 'STARTED' as const, nodeGroup: 0 }];
  assert.equal(nodeGroups(members)[0]!.health, 'OK');
  assert.equal(nodeGroups(members, 2)[0]!.health, 'DEGRADED');
  const pair = [...members, { nodeId: 3, status: 'STARTED' as const, nodeGroup: 0 }];
  assert.equal(safeToStop(pair[0]!, pair, 2), true);
  assert.equal(safeToStop(pair[0]!, pair, 3), false);
});

test('a new configuration generation: read again, the changes listed, an event in the log', async (t) => {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', dataNodes: 2 }, pollIntervalMs: 500, configRefreshMs: 200 });
  t.after(() => engine.close());
  const sim = engine.simulator!;
  await waitFor('the configuration read', async () => (await engine.handlers.getSnapshot({})).configGeneration === 1);
  const before = (await engine.handlers.getClusterConfig({}))!;
  assert.equal(before.lastChange, null);
  assert.ok(before.paramInfo.some((p) => p.name === 'DataMemory' && p.unit === 'bytes' && p.defaults.NDB === 102760448));
  const config = sim.model.config!;
  sim.model.config = {
    ...config,
    generation: 2,
    nodes: config.nodes.map((n) => (n.type === 'NDB' ? { ...n, params: { ...n.params, DataMemory: 4294967296 } } : n)),
  };
  await waitFor('generation 2 in the snapshot', async () => (await engine.handlers.getSnapshot({})).configGeneration === 2);
  const after = (await engine.handlers.getClusterConfig({}))!;
  assert.equal(after.generation, 2);
  assert.deepEqual(after.lastChange?.changes, [
    { nodeId: 2, param: 'DataMemory', before: 2147483648, after: 4294967296 },
    { nodeId: 3, param: 'DataMemory', before: 2147483648, after: 4294967296 },
  ]);
  const events = await engine.handlers.getEvents({ limit: 10_000 });
  const note = events.find((e) => e.name === 'ConfigurationChanged');
  assert.equal(note?.text, 'Configuration generation 1 → 2: DataMemory 2147483648 → 4294967296 on nodes 2, 3');
  const node2 = (await engine.handlers.getSnapshot({})).nodes.find((n) => n.nodeId === 2)!;
  assert.equal(node2.configured?.dataMemoryBytes, 4294967296);
});

test('management servers in the configuration but not in the connectstring become failover targets', async (t) => {
  const sim = await startSimulator({ scenario: 'idle', dataNodes: 2, mgmNodes: 2 });
  t.after(() => sim.close());
  const [first, second] = sim.mgmds;
  const engine = await createEngine({ host: 'serve', clusters: [{ connectstring: `${first!.host}:${first!.port}` }], simulator: false, pollIntervalMs: 300, requestTimeoutMs: 2000, actionsEnabled: true });
  t.after(() => engine.close());
  const snap = await waitFor('the second mgmd learned from the configuration', async () => {
    const s = await engine.handlers.getSnapshot({});
    return s.connection.configMgmds?.length ? s : null;
  });
  assert.deepEqual(snap.connection.configMgmds, [`${second!.host}:${second!.port}`]);
  await sim.stopMgmd(first!.nodeId);
  const failed = await waitFor('failed over to the second mgmd', async () => {
    const s = await engine.handlers.getSnapshot({});
    return s.connection.status === 'failed-over' ? s : null;
  });
  assert.equal(failed.connection.mgmd?.port, second!.port);
  // An operator action goes to the management server the monitor is on, though the connectstring never named it.
  const result = await engine.handlers.runAction({ action: { kind: 'exitSingleUser' } });
  assert.deepEqual(result, { ok: true, message: 'exiting single user mode' });
});

test('a recording carries the configuration: replay shows the same', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-cfg-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'run.jsonl');
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', dataNodes: 2 }, recordFile: file });
  await waitFor('configuration and status', async () => {
    const s = await engine.handlers.getSnapshot({});
    return s.configGeneration === 1 && s.nodes.length > 0;
  });
  const live = await engine.handlers.getClusterConfig({});
  await engine.close();
  const replay = await createReplayEngine({ file, speed: Infinity });
  t.after(() => replay.close());
  await replay.finished;
  assert.deepEqual(await replay.handlers.getClusterConfig({}), live);
  assert.equal((await replay.handlers.getSnapshot({})).nodes.find((n) => n.nodeId === 2)?.configured?.hostname, '10.0.0.12');
});

test('the configuration is read again when a management server comes back', async (t) => {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', dataNodes: 2 }, pollIntervalMs: 300, configRefreshMs: 3_600_000, requestTimeoutMs: 2000 });
  t.after(() => engine.close());
  const sim = engine.simulator!;
  await waitFor('generation 1', async () => (await engine.handlers.getSnapshot({})).configGeneration === 1);
  await sim.stopMgmd(1);
  await waitFor('the loss noticed', async () => (await engine.handlers.getSnapshot({})).connection.status === 'reconnecting');
  sim.model.config = { ...sim.model.config!, generation: 7 };
  await sim.startMgmd(1);
  await waitFor('generation 7 read after the reconnect', async () => (await engine.handlers.getSnapshot({})).configGeneration === 7, 30_000);
});
