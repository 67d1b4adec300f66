import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import WebSocket from 'ws';
import type { PushMessage } from '../../contract/schemas/channels.js';
import { ClusterSnapshotSchema, type ClusterSnapshot } from '../../contract/schemas/snapshot.js';
import { createEngine } from '../../engine/create-engine.js';
import type { EngineHost } from '../../engine/core/engine-host.js';
import { ServeConfigError } from '../access/auth.js';
import { startServeServer, type ServeServer } from '../serve-server.js';
import { createWebSocketApi } from '../../../renderer/src/bridge/ws-client.js';
import { httpGet, makeStaticRoot, waitFor } from './helpers.js';
import { parsePrometheusText } from './prom-text.js';
import { zodPageValidators } from '../../contract/schemas/validate.js';

// The real engine on the built-in simulator, behind a token-protected server bound to every interface (the
// tests only ever connect over loopback).
const TOKEN = 'e2e-token-0123456789';
let engine: EngineHost;
let server: ServeServer;
let cleanup: () => Promise<void>;

before(async () => {
  engine = await createEngine({ host: 'serve', simulator: { dataNodes: 4, replicas: 2 }, pollIntervalMs: 200 });
  const dir = await makeStaticRoot();
  cleanup = dir.cleanup;
  server = await startServeServer({ engine, staticDir: dir.root, host: '0.0.0.0', port: 0, token: TOKEN });
});
after(async () => {
  await server.close();
  await engine.close();
  await cleanup();
});

const auth = { Authorization: `Bearer ${TOKEN}` };

async function liveSnapshot(): Promise<ClusterSnapshot> {
  return waitFor(async () => {
    const reply = await httpGet(server.port, '/api/snapshot', auth);
    if (reply.status !== 200) return undefined;
    const snap = ClusterSnapshotSchema.parse(JSON.parse(reply.body));
    return snap.nodes.some((n) => n.type === 'NDB' && n.status === 'STARTED') ? snap : undefined;
  }, 'a snapshot with started data nodes');
}

test('bound to a non-loopback address without a token, the server refuses to start', async () => {
  await assert.rejects(startServeServer({ engine, staticDir: '/nonexistent', host: '0.0.0.0', port: 0 }), ServeConfigError);
});

test('without the token: 401 on HTTP, WebSocket upgrade refused; with it: 200 by header, query or cookie', async () => {
  for (const path of ['/', '/api/snapshot', '/metrics', '/assets/index-AbCd1234.js']) {
    assert.equal((await httpGet(server.port, path)).status, 401, path);
    assert.equal((await httpGet(server.port, path, { Authorization: 'Bearer wrong-token-0123456789' })).status, 401, path);
  }
  assert.equal((await httpGet(server.port, `/?token=${TOKEN}x`)).status, 401);
  const page = await httpGet(server.port, `/?token=${TOKEN}`);
  assert.equal(page.status, 200);
  const cookie = String(page.headers['set-cookie']).split(';')[0] ?? '';
  assert.equal((await httpGet(server.port, '/assets/index-AbCd1234.js', { Cookie: cookie })).status, 200);
  assert.equal((await httpGet(server.port, '/api/snapshot', auth)).status, 200);

  const refused = await new Promise<number>((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`);
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('open', () => reject(new Error('upgrade accepted without token')));
  });
  assert.equal(refused, 401);
});

test('/api/snapshot matches the contract and /metrics has a status line for every node', async () => {
  const snap = await liveSnapshot();
  assert.equal(snap.connection.mode, 'simulated');
  const metrics = await httpGet(server.port, '/metrics', auth);
  assert.equal(metrics.status, 200);
  const { samples } = parsePrometheusText(metrics.body);
  const current = new Map(samples.filter((s) => s.name === 'ndbtop_node_status' && s.value === 1).map((s) => [Number(s.labels.node_id), s.labels.status]));
  const fresh = await liveSnapshot();
  assert.deepEqual([...current.keys()].sort((a, b) => a - b), fresh.nodes.map((n) => n.nodeId).sort((a, b) => a - b));
  for (const s of samples.filter((x) => x.name === 'ndbtop_node_status')) assert.ok(s.value === 0 || s.value === 1);
  const names = new Set(samples.map((s) => s.name));
  for (const name of ['ndbtop_node_start_phase', 'ndbtop_connection_state', 'ndbtop_node_group_health', 'ndbtop_node_group_live_nodes']) {
    assert.ok(names.has(name), name);
  }
  const live = samples.find((s) => s.name === 'ndbtop_connection_state' && s.value === 1);
  assert.ok(live && ['live', 'failed_over'].includes(live.labels.state ?? ''), JSON.stringify(live));
});

test('the contract over WebSocket with the token: requests, pushes, actions refused without --allow-actions', async () => {
  const api = createWebSocketApi(`ws://127.0.0.1:${server.port}/ws`, TOKEN, { validators: zodPageValidators, WebSocket });
  try {
    const info = await api.getAppInfo({});
    assert.deepEqual({ host: info.host, actionsEnabled: info.actionsEnabled }, { host: 'serve', actionsEnabled: false });
    const [cluster] = await api.listClusters({});
    assert.ok(cluster);
    const snap = await api.getSnapshot({ clusterId: cluster.clusterId });
    assert.ok(snap.nodes.length > 0);
    const pushes: PushMessage[] = [];
    const off = api.onPush((m) => pushes.push(m));
    await waitFor(() => (pushes.some((m) => m.type === 'snapshot' || m.type === 'delta' || m.type === 'history') ? true : undefined), 'a push from the engine');
    off();
    const dataNode = snap.nodes.find((n) => n.type === 'NDB');
    assert.ok(dataNode);
    await assert.rejects(
      api.runAction({ clusterId: cluster.clusterId, action: { kind: 'restart', nodeId: dataNode.nodeId } }),
      (err: Error & { code?: string }) => err.code === 'FORBIDDEN' && /disabled/.test(err.message),
    );
    await assert.rejects(api.getSnapshot({ clusterId: 'no-such-cluster' }), (err: Error & { code?: string }) => err.code === 'NOT_FOUND');
  } finally {
    api.close();
  }
});
