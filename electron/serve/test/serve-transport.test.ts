import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import WebSocket from 'ws';
import type { PushMessage } from '../../contract/schemas/channels.js';
import { startServeServer, type ServeServer } from '../serve-server.js';
import { createWebSocketApi } from '../../../renderer/src/bridge/ws-client.js';
import { createFixtureEngine, FIXTURE_SNAPSHOT } from './fixture-engine.js';
import { httpGet, makeStaticRoot, waitFor } from './helpers.js';
import { parsePrometheusText } from './prom-text.js';
import { zodPageValidators } from '../../contract/schemas/validate.js';
import { RESPONSE_TAG } from '../../contract/page-safe/ws-protocol.js';
import { freePort } from '../../../native-mgm/test/free-port.js';

// Transport-level behaviour (framing, malformed input, headers) against a fixture engine; serve-e2e.test.ts runs
// the real engine on the simulator.
const engine = createFixtureEngine();
let server: ServeServer;
let cleanup: () => Promise<void>;

before(async () => {
  const dir = await makeStaticRoot();
  cleanup = dir.cleanup;
  server = await startServeServer({ engine, staticDir: dir.root, port: 0 });
});
after(async () => {
  await server.close();
  await cleanup();
});

function rawSocket(path = '/ws', headers: Record<string, string> = {}, port = server.port): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

/** The next response frame: heartbeats (every 500 ms) come between a request and its answer on a slow machine. */
function nextResponse(ws: WebSocket): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData): void => {
      const frame = JSON.parse(String(data)) as Record<string, unknown>;
      if (frame.type !== RESPONSE_TAG) return;
      ws.off('message', onMessage);
      resolve(frame);
    };
    ws.on('message', onMessage);
  });
}

test('static files with their content types and the CSP; missing files are 404', async () => {
  const index = await httpGet(server.port, '/');
  assert.equal(index.status, 200);
  assert.equal(index.headers['content-type'], 'text/html; charset=utf-8');
  assert.match(String(index.headers['content-security-policy']), /script-src 'self'/);
  assert.equal(index.headers['x-content-type-options'], 'nosniff');
  const asset = await httpGet(server.port, '/assets/index-AbCd1234.js');
  assert.equal(asset.status, 200);
  assert.equal(asset.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.match(String(asset.headers['cache-control']), /immutable/);
  assert.equal((await httpGet(server.port, '/nope.js')).status, 404);
  assert.equal((await httpGet(server.port, '/assets')).status, 404);
});

test('no directory traversal over the wire', async () => {
  for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/%2e%2e/%2e%2e/secret.txt', '/..%2fsecret.txt']) {
    const reply = await httpGet(server.port, path);
    assert.equal(reply.status, 404, path);
    assert.doesNotMatch(reply.body, /do not serve/);
  }
});

test('DNS rebinding and foreign origins are refused on a token-less loopback server', async () => {
  assert.equal((await httpGet(server.port, '/', { Host: 'evil.example:80' })).status, 403);
  await assert.rejects(rawSocket('/ws', { Origin: 'http://evil.example' }), /HTTP 403/);
  const ok = await rawSocket('/ws', { Origin: `http://127.0.0.1:${server.port}` });
  ok.close();
});

test('/api/snapshot and /metrics', async () => {
  const snap = await httpGet(server.port, '/api/snapshot');
  assert.equal(snap.status, 200);
  assert.deepEqual(JSON.parse(snap.body), FIXTURE_SNAPSHOT);
  const metrics = await httpGet(server.port, '/metrics');
  assert.equal(metrics.status, 200);
  assert.match(String(metrics.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  const { samples, types } = parsePrometheusText(metrics.body);
  assert.equal(types.get('ndbtop_node_status'), 'gauge');
  const current = samples.filter((s) => s.name === 'ndbtop_node_status' && s.value === 1).map((s) => `${s.labels.node_id}:${s.labels.status}`);
  assert.deepEqual(current.sort(), ['1:started', '2:no_contact', '49:connected']);
  const health = samples.find((s) => s.name === 'ndbtop_node_group_health' && s.value === 1);
  assert.equal(health?.labels.health, 'degraded');
  const mem = samples.find((s) => s.name === 'ndbtop_node_memory_used_bytes' && s.labels.node_id === '1' && s.labels.memory === 'data');
  assert.equal(mem?.value, 10 * 32768);
});

test('requests and pushes through createWebSocketApi, validated on arrival', async () => {
  const statuses: string[] = [];
  const api = createWebSocketApi(`ws://127.0.0.1:${server.port}/ws`, undefined, { validators: zodPageValidators, WebSocket, onStatus: (s) => statuses.push(s) });
  try {
    assert.deepEqual(await api.getSnapshot({}), FIXTURE_SNAPSHOT);
    const pushes: PushMessage[] = [];
    const off = api.onPush((m) => pushes.push(m));
    await waitFor(() => (engine.subscribers > 0 ? true : undefined), 'the server to subscribe');
    engine.push({ type: 'clusters', clusters: [] });
    await waitFor(() => (pushes.length > 0 ? true : undefined), 'a push');
    assert.deepEqual(pushes[0], { type: 'clusters', clusters: [] });
    off();
    // An engine with actions off: serve refuses the action before it reaches the engine, as it refuses any change.
    await assert.rejects(api.runAction({ action: { kind: 'start', nodeId: 1 } }), (err: Error & { code?: string }) => err.code === 'FORBIDDEN');
    // Invalid on the client's side too: the server answers BAD_MESSAGE rather than passing it on.
    await assert.rejects(api.getEvents({ limit: 0 }), (err: Error & { code?: string }) => err.code === 'BAD_MESSAGE' && /limit/.test(err.message));
    assert.deepEqual(statuses.slice(0, 2), ['connecting', 'open']);
  } finally {
    api.close();
  }
});

test('malformed frames get a clear error and the connection keeps serving', async () => {
  // Heartbeats every 5 ms: frames come between a request and its answer, as the 500 ms ones do on a slow machine.
  const beating = await startServeServer({ engine, staticDir: '/nonexistent', port: 0, heartbeatMs: 5 });
  const ws = await rawSocket('/ws', {}, beating.port);
  try {
    const cases: Array<[string | Buffer, RegExp]> = [
      ['not json', /not JSON/],
      ['[1,2]', /not a JSON object/],
      ['{"name":"getSnapshot"}', /integer "id"/],
      ['{"id":1}', /string "name"/],
      ['{"id":2,"name":"dropTables","request":{}}', /unknown request/],
      ['{"id":3,"name":"getEvents","request":{"limit":"lots"}}', /limit/],
      [Buffer.from([1, 2, 3]), /binary/],
    ];
    for (const [frame, message] of cases) {
      const reply = nextResponse(ws);
      ws.send(frame);
      const got = await reply;
      assert.equal(got.ok, false);
      assert.match(String((got.error as { message: string }).message), message);
    }
    const reply = nextResponse(ws);
    ws.send(JSON.stringify({ id: 9, name: 'getAppInfo', request: {} }));
    assert.deepEqual(await reply, { type: 'ndbtop:response', id: 9, ok: true, response: { version: '0.0.0', host: 'serve', actionsEnabled: false, changesEnabled: false } });
  } finally {
    ws.close();
    await beating.close();
  }
});

test('the client reconnects when the server comes back, and requests made meanwhile go through', async () => {
  const dir = await makeStaticRoot();
  // A port no other test's bind(0) can take while this server is down.
  const port = await freePort();
  let own = await startServeServer({ engine, staticDir: dir.root, port });
  const statuses: string[] = [];
  const api = createWebSocketApi(`ws://127.0.0.1:${port}/ws`, undefined, { validators: zodPageValidators, WebSocket, reconnectMinMs: 20, reconnectMaxMs: 200, onStatus: (s) => statuses.push(s) });
  try {
    await api.getAppInfo({});
    await own.close();
    await waitFor(() => (statuses.includes('closed') ? true : undefined), 'the client to see the close');
    const meanwhile = api.getAppInfo({});
    own = await startServeServer({ engine, staticDir: dir.root, port });
    assert.equal((await meanwhile).host, 'serve');
    assert.equal(statuses.filter((s) => s === 'open').length, 2);
  } finally {
    api.close();
    await own.close();
    await dir.cleanup();
  }
});

test('a closed client rejects at once and stops reconnecting', async () => {
  const api = createWebSocketApi(`ws://127.0.0.1:${server.port}/ws`, undefined, { validators: zodPageValidators, WebSocket });
  api.close();
  await assert.rejects(api.getAppInfo({}), (err: Error & { code?: string }) => err.code === 'CLOSED');
});
