import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { test, type TestContext } from 'node:test';
import WebSocket from 'ws';
import { createEngine } from '../../engine/create-engine.js';
import { Engine, MAX_CLUSTERS } from '../../engine/engine.js';
import { DEFAULT_SETTINGS, SettingsStore } from '../../engine/core/settings-store.js';
import { startServeServer } from '../serve-server.js';
import { createWebSocketApi } from '../../../renderer/src/bridge/ws-client.js';
import { REQUEST_ACCESS } from '../access/viewer-access.js';
import { httpGet, makeStaticRoot, waitFor } from './helpers.js';
import { zodPageValidators } from '../../contract/schemas/validate.js';

// Issue 15 item 2: any browser could add clusters (a port scanner), remove the watched one, change settings.

async function stack(t: TestContext, allowChanges: boolean, actionsEnabled = false) {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', dataNodes: 2 }, pollIntervalMs: 500, actionsEnabled });
  const dir = await makeStaticRoot();
  const server = await startServeServer({ engine, staticDir: dir.root, port: 0, allowChanges });
  const api = createWebSocketApi(`ws://127.0.0.1:${server.port}/ws`, undefined, { validators: zodPageValidators, WebSocket });
  t.after(async () => {
    api.close();
    await server.close();
    await engine.close();
    await dir.cleanup();
  });
  return { engine, server, api };
}

const forbidden = (err: Error & { code?: string }): boolean => err.code === 'FORBIDDEN' && /--allow-changes/.test(err.message);

test('without --allow-changes a viewer can read everything but change nothing', { timeout: 60_000 }, async (t) => {
  const { api, server } = await stack(t, false);
  const [cluster] = await api.listClusters({});
  assert.ok(cluster);
  assert.equal((await api.getAppInfo({})).changesEnabled, false);
  await assert.rejects(api.addCluster({ name: 'scan', connectstring: '127.0.0.1:22' }), forbidden);
  await assert.rejects(api.removeCluster({ clusterId: cluster.clusterId }), forbidden);
  await assert.rejects(api.updateSettings({ pollIntervalMs: 60_000 }), forbidden);
  await assert.rejects(api.saveProfile({ id: 'x', name: 'x', connectstring: 'evil:1186' }), forbidden);
  await assert.rejects(api.deleteProfile({ id: 'x' }), forbidden);
  await assert.rejects(api.acknowledgeAlert({ clusterId: cluster.clusterId, alertId: 'a1' }), forbidden);
  // Issue 35 item 1: a viewer silenced every alert, criticals included, for a week, over the WebSocket or HTTP.
  await assert.rejects(api.startMaintenance({ clusterId: cluster.clusterId, reason: 'hush', silenceCritical: true, durationMs: 60_000 }), forbidden);
  await assert.rejects(api.extendMaintenance({ clusterId: cluster.clusterId, windowId: 'mw-1', durationMs: 60_000 }), forbidden);
  await assert.rejects(api.stopMaintenance({ clusterId: cluster.clusterId, windowId: 'mw-1' }), forbidden);
  for (const path of ['/api/maintenance', '/api/maintenance/mw-1/extend', '/api/maintenance/mw-1/stop']) {
    const res = await fetch(`http://127.0.0.1:${server.port}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ durationMs: 60_000 }) });
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(res.status, 403, path);
    assert.ok(forbidden(Object.assign(new Error(body.error.message), { code: body.error.code })), `${path}: ${JSON.stringify(body)}`);
  }
  assert.deepEqual(await api.listMaintenance({ clusterId: cluster.clusterId }), [], 'no window was opened');
  assert.deepEqual((await api.getAlertHistory({ clusterId: cluster.clusterId })).maintenance, []);
  assert.equal((await api.listClusters({})).length, 1);
  assert.equal((await api.getSettings({})).pollIntervalMs, 500);
  assert.deepEqual(await api.listProfiles({}), []);
  const snap = JSON.parse((await httpGet(server.port, '/api/snapshot')).body) as { clusterId: string };
  assert.equal(snap.clusterId, cluster.clusterId);
  // Reading is untouched.
  await api.getSnapshot({ clusterId: cluster.clusterId });
  await api.getEvents({ clusterId: cluster.clusterId });
});

test('with --allow-changes the same requests work', { timeout: 60_000 }, async (t) => {
  const { api } = await stack(t, true);
  assert.equal((await api.getAppInfo({})).changesEnabled, true);
  assert.equal((await api.updateSettings({ pollIntervalMs: 700 })).pollIntervalMs, 700);
  assert.equal((await api.saveProfile({ id: 'p', name: 'lab', connectstring: 'lab:1186' })).length, 1);
  const window = await api.startMaintenance({ reason: 'disk swap', durationMs: 60_000 });
  assert.deepEqual([window.silenceCritical, window.openedBy, window.until === null ? null : window.until - window.start], [false, 'unnamed', 60_000]);
  assert.equal((await api.extendMaintenance({ windowId: window.id, durationMs: 60_000, by: 'alice' })).until, window.start + 120_000);
  assert.notEqual((await api.stopMaintenance({ windowId: window.id, by: 'alice' })).end, null);
});

// Issue 24 item 4: a refused operator action came back as a response ({ ok: true, response: { ok: false } }).
test('without --allow-actions an operator action is a FORBIDDEN error, on the wire and through the API', { timeout: 60_000 }, async (t) => {
  const { api, server, engine } = await stack(t, true);
  const [cluster] = await api.listClusters({});
  assert.ok(cluster);
  await assert.rejects(api.runAction({ clusterId: cluster.clusterId, action: { kind: 'stop', nodeId: 2 } }), (err: Error & { code?: string }) => err.code === 'FORBIDDEN' && /--allow-actions/.test(err.message));
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`);
  t.after(() => ws.terminate());
  await once(ws, 'open');
  ws.send(JSON.stringify({ id: 7, name: 'runAction', request: { action: { kind: 'restart', nodeId: 2 } } }));
  const answer = await new Promise<Record<string, unknown>>((resolve) =>
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Record<string, unknown>;
      if (frame.type === 'ndbtop:response') resolve(frame);
    }),
  );
  assert.equal(answer.ok, false, JSON.stringify(answer));
  assert.equal((answer.error as { code: string }).code, 'FORBIDDEN');
  assert.equal(engine.simulator?.model.data.get(2)?.status, 'STARTED');
});

test('with --allow-actions the same action reaches the cluster', { timeout: 60_000 }, async (t) => {
  const { api, engine } = await stack(t, true, true);
  const [cluster] = await api.listClusters({});
  assert.ok(cluster);
  await waitFor(async () => ((await api.getSnapshot({ clusterId: cluster.clusterId })).nodes.length > 0 ? true : undefined), 'the first status');
  const result = await api.runAction({ clusterId: cluster.clusterId, action: { kind: 'stop', nodeId: 2 } });
  assert.equal(result.ok, true, result.message);
  await waitFor(() => (engine.simulator?.model.data.get(2)?.status !== 'STARTED' ? true : undefined), 'node 2 leaving STARTED');
});

test('every request of the contract is classified, and only reads are open to viewers', () => {
  const changes = Object.entries(REQUEST_ACCESS).filter(([, access]) => access === 'change').map(([name]) => name);
  assert.deepEqual(changes.sort(), ['acknowledgeAlert', 'addCluster', 'deleteProfile', 'extendMaintenance', 'removeCluster', 'saveProfile', 'startMaintenance', 'stopMaintenance', 'updateSettings']);
});

test(`the engine watches at most ${MAX_CLUSTERS} clusters`, async () => {
  const engine = new Engine({
    host: 'serve',
    version: '0',
    actionsEnabled: false,
    settings: new SettingsStore(DEFAULT_SETTINGS, undefined, {}),
    recorder: null,
    connect: () => ({ runAction: async () => ({ ok: false, message: '' }), setPollInterval: () => undefined, setFailover: () => undefined, close: () => undefined }),
  });
  for (let i = 0; i < MAX_CLUSTERS; i += 1) engine.connectCluster(`c${i}`, `h${i}:1186`);
  assert.throws(() => engine.connectCluster('one more', 'h:1186'), /already watching/);
  assert.equal(engine.entries().length, MAX_CLUSTERS);
  await engine.close();
});

test('what a non-management server sends back never reaches the connection error or alerts', { timeout: 60_000 }, async (t) => {
  const banner = 'SSH-2.0-OpenSSH_9.2 SECRET-BANNER';
  const fake = createServer((s) => {
    s.on('error', () => undefined);
    s.end(`${banner}\r\n`);
  });
  fake.listen(0, '127.0.0.1');
  await once(fake, 'listening');
  t.after(() => fake.close());
  const port = (fake.address() as { port: number }).port;
  const engine = await createEngine({ host: 'serve', simulator: false, clusters: [{ connectstring: `127.0.0.1:${port}` }], pollIntervalMs: 200 });
  t.after(() => engine.close());
  const snap = await waitFor(async () => {
    const s = await engine.handlers.getSnapshot({});
    return s.connection.lastError !== null ? s : undefined;
  }, 'a connection error');
  assert.match(String(snap.connection.lastError), /protocol error/);
  assert.doesNotMatch(JSON.stringify(snap), /SECRET|SSH-2/);
});
