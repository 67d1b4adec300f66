import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { test, type TestContext } from 'node:test';
import WebSocket, { WebSocketServer } from 'ws';
import type { EngineHandlers } from '../../contract/page-safe/api.js';
import { startServeServer, type ServeOptions } from '../serve-server.js';
import { createWebSocketApi } from '../../../renderer/src/bridge/ws-client.js';
import { MAX_CLIENT_BUFFER_BYTES } from '../transport/ws-server.js';
import { createFixtureEngine, type FixtureEngine } from './fixture-engine.js';
import { httpGet, makeStaticRoot, waitFor } from './helpers.js';
import { zodPageValidators } from '../../contract/schemas/validate.js';

// Issue 15: serve against hostile browsers and networks, each attack as a test (fixture engine; the gate
// against the real engine is in viewer-gate.test.ts).

async function serve(t: TestContext, options: Partial<ServeOptions> = {}, patch: Partial<EngineHandlers> = {}) {
  const engine: FixtureEngine = createFixtureEngine();
  Object.assign(engine.handlers, patch);
  const dir = await makeStaticRoot();
  const server = await startServeServer({ engine, staticDir: dir.root, port: 0, ...options });
  t.after(async () => {
    await server.close();
    await dir.cleanup();
  });
  return { engine, server };
}

function open(port: number, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

function frames(ws: WebSocket): Array<Record<string, unknown>> {
  const got: Array<Record<string, unknown>> = [];
  ws.on('message', (data) => got.push(JSON.parse(String(data)) as Record<string, unknown>));
  return got;
}

const closed = (s: Socket): Promise<unknown> => (s.destroyed ? Promise.resolve() : once(s, 'close'));

test('a client that stops reading gets at most ~2 MB buffered, then a resync once it reads again; others get every push', { timeout: 120_000 }, async (t) => {
  // No ping timeout during the test: the paused client is to be resynced, not dropped for missing pongs.
  const { engine, server } = await serve(t, { heartbeatMs: 600_000 });
  const slow = await open(server.port);
  const fast = await open(server.port);
  const slowFrames = frames(slow);
  const fastFrames = frames(fast);
  slow.pause();
  // 40 MB of pushes: far past what the kernel's socket buffers absorb, so the server has to decide.
  const big = { type: 'events', clusterId: 'c1', events: [], pad: 'x'.repeat(200_000) } as never;
  const total = 200;
  // Paced as the engine paces pushes: a client that reads keeps up.
  for (let i = 1; i <= total; i += 1) {
    engine.push(big);
    await waitFor(() => (fastFrames.length >= i ? true : undefined), `the fast client to get push ${i}`, 60_000);
  }
  slow.resume();
  await waitFor(() => {
    if (slowFrames.some((f) => f.type === 'ndbtop:resync')) return true;
    engine.push({ type: 'clusters', clusters: [] });
    return undefined;
  }, 'a resync frame for the slow client', 60_000);
  assert.equal(slow.readyState, WebSocket.OPEN, 'the slow client is resynced, not dropped');
  const pushes = slowFrames.filter((f) => f.type === 'ndbtop:push' && (f.message as { pad?: string }).pad !== undefined).length;
  assert.ok(pushes < total, `all ${total} pushes were queued for a client that did not read`);
  assert.ok(pushes * 200_000 < 20 * MAX_CLIENT_BUFFER_BYTES, `${pushes} big pushes reached the slow client`);
  slow.close();
  fast.close();
});

test('answers larger than a client buffer are refused over WebSocket; exports stream over GET /api/export', { timeout: 60_000 }, async (t) => {
  const content = 'at,time,node.1.transactions\n'.padEnd(3 * MAX_CLIENT_BUFFER_BYTES, '1');
  const { server } = await serve(t, {}, { exportHistory: async () => ({ filename: 'ndbtop-x.csv', mime: 'text/csv', content }) });
  const api = createWebSocketApi(`ws://127.0.0.1:${server.port}/ws`, undefined, { validators: zodPageValidators, WebSocket });
  t.after(() => api.close());
  await assert.rejects(api.exportHistory({ format: 'csv' }), (err: Error & { code?: string }) => err.code === 'TOO_LARGE' && /\/api\/export/.test(err.message));
  assert.equal((await api.getAppInfo({})).host, 'serve', 'the socket keeps serving');
  const reply = await httpGet(server.port, '/api/export?format=csv');
  assert.equal(reply.status, 200);
  assert.equal(reply.headers['content-disposition'], 'attachment; filename="ndbtop-x.csv"');
  assert.equal(reply.body, content);
  assert.equal((await httpGet(server.port, '/api/export?format=xml')).status, 400);
});

test('a client that keeps asking but never reads is dropped instead of buffered without bound', { timeout: 60_000 }, async (t) => {
  const content = 'x'.repeat(MAX_CLIENT_BUFFER_BYTES / 2);
  const { engine, server } = await serve(t, { heartbeatMs: 600_000 }, { exportHistory: async () => ({ filename: 'f.csv', mime: 'text/csv', content }) });
  const greedy = await open(server.port);
  const gone = once(greedy, 'close');
  greedy.pause();
  // 100 MB of answers asked for; the kernel's buffers hold a few, the server must stop at ~4 MB of its own.
  for (let id = 1; id <= 100; id += 1) greedy.send(JSON.stringify({ id, name: 'exportHistory', request: { format: 'csv' } }));
  await waitFor(() => (engine.subscribers === 0 ? true : undefined), 'the server to drop the greedy client', 30_000);
  greedy.resume();
  await gone;
});

test('every client gets pings and heartbeat frames; one that does not answer pings is dropped', { timeout: 60_000 }, async (t) => {
  const { server, engine } = await serve(t, { heartbeatMs: 100 });
  const live = await open(server.port);
  const got = frames(live);
  await waitFor(() => (got.filter((f) => f.type === 'ndbtop:heartbeat').length >= 2 ? true : undefined), 'two heartbeats');
  const beat = got.find((f) => f.type === 'ndbtop:heartbeat');
  assert.equal(beat?.intervalMs, 100);
  const dead = await open(server.port);
  const gone = once(dead, 'close');
  assert.equal(engine.subscribers, 2);
  dead.pause(); // reads nothing, so answers no ping
  await waitFor(() => (engine.subscribers === 1 ? true : undefined), 'the server to drop the silent client', 30_000);
  dead.resume();
  await gone;
  assert.equal(live.readyState, WebSocket.OPEN);
  live.close();
});

test('the WebSocket client treats a server silent for three heartbeat intervals as lost, and reconnects', { timeout: 60_000 }, async (t) => {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(wss, 'listening');
  let connections = 0;
  // Sends one heartbeat, then nothing, and never closes: a frozen server behind a live TCP connection.
  wss.on('connection', (ws) => {
    connections += 1;
    ws.send(JSON.stringify({ type: 'ndbtop:heartbeat', at: Date.now(), intervalMs: 50 }));
  });
  t.after(() => {
    for (const c of wss.clients) c.terminate();
    wss.close();
  });
  const statuses: string[] = [];
  const beats: number[] = [];
  const api = createWebSocketApi(`ws://127.0.0.1:${(wss.address() as { port: number }).port}/ws`, undefined, {
    validators: zodPageValidators,
    WebSocket,
    reconnectMinMs: 20,
    onStatus: (s) => statuses.push(s),
    onHeartbeat: (at) => beats.push(at),
  });
  t.after(() => api.close());
  await waitFor(() => (connections >= 2 ? true : undefined), 'a reconnect after the silence', 30_000);
  assert.ok(statuses.includes('closed'));
  assert.ok(beats.length >= 1);
});

test('slowloris: a client that never finishes its headers is cut off after the headers timeout', { timeout: 30_000 }, async (t) => {
  const { server } = await serve(t, { headersTimeoutMs: 500 });
  const slow = connect(server.port, '127.0.0.1');
  await once(slow, 'connect');
  slow.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
  slow.on('data', () => undefined);
  await closed(slow);
  assert.equal((await httpGet(server.port, '/')).status, 200);
});

test('connections past the cap are refused at accept; the server serves again once they go', { timeout: 30_000 }, async (t) => {
  const { server } = await serve(t, { maxConnections: 4, headersTimeoutMs: 60_000 });
  // Pages' WebSockets that answer their pings: in use, so none yields its slot (an idle keep-alive would).
  const inUse: WebSocket[] = [];
  for (let i = 0; i < 4; i += 1) inUse.push(await open(server.port));
  const extra = connect(server.port, '127.0.0.1');
  extra.on('error', () => undefined);
  await closed(extra);
  for (const ws of inUse) ws.terminate();
  await waitFor(async () => ((await httpGet(server.port, '/').catch(() => null))?.status === 200 ? true : undefined), 'a normal request to work again');
});

test('CSP connect-src is the dashboard itself; origins differing only in scheme are refused; no source maps', async (t) => {
  const { server } = await serve(t);
  const index = await httpGet(server.port, '/');
  const csp = String(index.headers['content-security-policy']);
  assert.match(csp, /connect-src 'self'(;|$)/);
  assert.doesNotMatch(csp, /ws:|wss:/);
  const host = `127.0.0.1:${server.port}`;
  for (const origin of [`https://${host}`, `ws://${host}`, `chrome-extension://${host}`, 'null', `http://${host}/path`]) {
    await assert.rejects(open(server.port, { Origin: origin }), /HTTP 403/, origin);
    assert.equal((await httpGet(server.port, '/api/snapshot', { Origin: origin })).status, 403, origin);
  }
  const ws = await open(server.port, { Origin: `http://${host}` });
  ws.close();
  assert.equal((await httpGet(server.port, '/assets/index-AbCd1234.js.map')).status, 404);
});

test('--host ::1 and [::1] bind the IPv6 loopback', async (t) => {
  for (const host of ['::1', '[::1]']) {
    const { server } = await serve(t, { host });
    assert.equal(server.host, '::1');
    assert.match(server.url, /^http:\/\/\[::1\]:\d+\/$/);
    const reply = await httpGet(server.port, '/api/snapshot', {}, '::1');
    assert.equal(reply.status, 200);
  }
});
