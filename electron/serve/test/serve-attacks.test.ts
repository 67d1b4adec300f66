import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import { mock, test, type TestContext } from 'node:test';
import WebSocket from 'ws';
import { createEngine } from '../../engine/create-engine.js';
import { startServeServer, type ServeOptions } from '../serve-server.js';
import { createFixtureEngine } from './fixture-engine.js';
import { makeStaticRoot, waitFor } from './helpers.js';

// Issue 12 (serve against hostile browsers and networks): every attack goes over a real socket, as raw bytes, to a
// real serve on an ephemeral port, so no client library normalises a path or fills in a header for us.

async function serve(t: TestContext, options: Partial<ServeOptions> = {}) {
  const dir = await makeStaticRoot();
  const server = await startServeServer({ engine: options.engine ?? createFixtureEngine(), staticDir: dir.root, port: 0, ...options });
  t.after(async () => {
    await server.close();
    await dir.cleanup();
  });
  return server;
}

interface RawReply {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** Sends `request` as written (with `Connection: close`) and reads until the server closes. */
async function raw(port: number, request: string | Buffer): Promise<RawReply> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  // A server that answers early and closes makes the rest of our write fail (EPIPE): the answer still counts.
  const closed = new Promise((resolve) => socket.once('close', resolve));
  await once(socket, 'connect');
  // Not half-closed: a server may drop a client that ends its side before an asynchronous answer is ready.
  socket.write(request);
  await closed;
  const text = Buffer.concat(chunks).toString('latin1');
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  const reply = { status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n') };
  // No answer, whatever it is, grants another site access: never a CORS header.
  for (const name of headers.keys()) assert.doesNotMatch(name, /^access-control-/, `${name} in the answer to ${String(request).split('\r\n')[0]}`);
  return reply;
}

const get = (port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawReply> =>
  raw(port, `${method} ${path} HTTP/1.1\r\n${Object.entries({ Host: `127.0.0.1:${port}`, Connection: 'close', ...headers }).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`);

const UPGRADE = { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==' };

test('DNS rebinding: a Host that is not the bound address, a loopback name on a loopback bind, or a configured name is refused', async (t) => {
  const server = await serve(t);
  const p = server.port;
  for (const host of ['evil.example', `evil.example:${p}`, `127.0.0.1:${p + 1}`, `localhost:${p + 1}`, `evil.example@127.0.0.1:${p}`, `127.0.0.1:${p}/x`, `10.0.0.1:${p}`, '']) {
    assert.equal((await get(p, '/api/snapshot', { Host: host })).status, 403, `Host: ${host}`);
    assert.equal((await get(p, '/ws', { ...UPGRADE, Host: host })).status, 403, `upgrade, Host: ${host}`);
  }
  assert.equal((await raw(p, 'GET /api/snapshot HTTP/1.1\r\nConnection: close\r\n\r\n')).status, 400, 'no Host at all');
  for (const host of [`127.0.0.1:${p}`, `localhost:${p}`, `LOCALHOST:${p}`]) assert.equal((await get(p, '/api/snapshot', { Host: host })).status, 200, host);
});

// Issue 24 item 8: Node keeps the first Host line and drops the rest, so an empty Host after the right one passed.
test('DNS rebinding: an empty Host next to the right one is refused, before or after it, over HTTP and on upgrades', async (t) => {
  const server = await serve(t);
  const p = server.port;
  const ours = `Host: 127.0.0.1:${p}\r\n`;
  for (const hosts of [`${ours}Host:\r\n`, `Host:\r\n${ours}`, `${ours}host: \r\n`, `${ours}${ours}`]) {
    const plain = await raw(p, `GET /api/snapshot HTTP/1.1\r\n${hosts}Connection: close\r\n\r\n`);
    assert.equal(plain.status, 403, JSON.stringify(hosts));
    const upgrade = Object.entries(UPGRADE).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    assert.equal((await raw(p, `GET /ws HTTP/1.1\r\n${hosts}${upgrade}\r\n`)).status, 403, `upgrade, ${JSON.stringify(hosts)}`);
  }
  assert.equal((await raw(p, `GET /api/snapshot HTTP/1.1\r\n${ours}Connection: close\r\n\r\n`)).status, 200);
});

test('DNS rebinding with a token on a wildcard bind: the token does not make a foreign name acceptable; --allow-host names are', async (t) => {
  const token = 'attack-token-0123456789';
  const server = await serve(t, { host: '0.0.0.0', token, allowedHosts: ['Dash.Example'] });
  const p = server.port;
  const auth = { Authorization: `Bearer ${token}` };
  assert.equal((await get(p, '/api/snapshot', { ...auth, Host: `evil.example:${p}` })).status, 403);
  assert.equal((await get(p, '/ws', { ...UPGRADE, ...auth, Host: `evil.example:${p}` })).status, 403);
  // A configured name behind a proxy may come without the port.
  assert.equal((await get(p, '/api/snapshot', { ...auth, Host: 'dash.example' })).status, 200);
  // An address typed into the browser is no rebinding.
  assert.equal((await get(p, '/api/snapshot', { ...auth, Host: `10.1.2.3:${p}` })).status, 200);
  assert.equal((await get(p, '/api/snapshot', { Host: 'dash.example' })).status, 401);
});

test('cross-site WebSocket hijacking: an upgrade from another Origin is refused; one without Origin (not a browser) still needs Host and token', async (t) => {
  const server = await serve(t);
  const p = server.port;
  for (const origin of ['http://evil.example', `http://127.0.0.1:${p}.evil.example`, `http://evil.example:${p}`, `http://localhost:${p}`, `https://127.0.0.1:${p}`, 'null', 'file://']) {
    assert.equal((await get(p, '/ws', { ...UPGRADE, Origin: origin })).status, 403, origin);
  }
  assert.equal((await get(p, '/ws', { ...UPGRADE, Origin: `http://127.0.0.1:${p}` })).status, 101);
  assert.equal((await get(p, '/ws', UPGRADE)).status, 101);
  const guarded = await serve(t, { token: 'attack-token-0123456789' });
  assert.equal((await get(guarded.port, '/ws', UPGRADE)).status, 401);
});

test('no CORS: a preflight is not answered with permissions, a foreign Origin gets 403, and no answer carries Access-Control-*', async (t) => {
  const server = await serve(t);
  const p = server.port;
  const preflight = await get(p, '/api/snapshot', { Origin: `http://127.0.0.1:${p}`, 'Access-Control-Request-Method': 'POST' }, 'OPTIONS');
  assert.equal(preflight.status, 405);
  assert.equal((await get(p, '/api/snapshot', { Origin: 'http://evil.example' })).status, 403);
  assert.equal((await get(p, '/api/snapshot', { Origin: 'http://evil.example' }, 'OPTIONS')).status, 403);
  assert.equal((await get(p, '/api/snapshot')).status, 200);
});

test('request headers are capped: one 64 KB header or 1000 headers get 431, and the server goes on serving', async (t) => {
  const server = await serve(t);
  const p = server.port;
  assert.equal((await get(p, '/', { 'X-Big': 'a'.repeat(64 * 1024) })).status, 431);
  const many = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`X-Header-${i}`, 'a']));
  assert.equal((await get(p, '/', many)).status, 431);
  assert.equal((await get(p, '/')).status, 200);
});

test('request bodies are capped: a 4 MB POST is refused with 413 (64 KiB at most are read) and the server goes on', { timeout: 30_000 }, async (t) => {
  const server = await serve(t);
  const body = Buffer.alloc(4 << 20, 0x20);
  const head = `POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  assert.equal((await raw(server.port, Buffer.concat([Buffer.from(head), body]))).status, 413);
  assert.equal((await get(server.port, '/api/snapshot')).status, 200);
});

test('slowloris: a client sending one header byte per second is cut off by the headers timeout, not kept for its whole request', { timeout: 60_000 }, async (t) => {
  const server = await serve(t, { headersTimeoutMs: 2000 });
  const socket = connect(server.port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.on('data', () => undefined);
  await once(socket, 'connect');
  socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nX-Slow: `);
  let sent = 0;
  const drip = setInterval(() => {
    if (socket.destroyed) return;
    sent += 1;
    socket.write('a');
  }, 1000);
  t.after(() => clearInterval(drip));
  await once(socket, 'close');
  clearInterval(drip);
  // Cut off by the clock, not by running out of bytes: the drip would have gone on for 40 s.
  assert.ok(sent < 40, `${sent} bytes dripped before the cut`);
  assert.equal((await get(server.port, '/')).status, 200);
});

test('WebSockets are capped: past the cap an upgrade gets 503, and one closing makes room', { timeout: 30_000 }, async (t) => {
  const server = await serve(t, { maxWebSockets: 3 });
  const open = (): Promise<WebSocket> =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`);
      ws.once('open', () => resolve(ws));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
  const sockets = [await open(), await open(), await open()];
  t.after(() => sockets.forEach((s) => s.terminate()));
  assert.equal((await get(server.port, '/ws', UPGRADE)).status, 503);
  await assert.rejects(open(), /HTTP 503/);
  // Plain HTTP is unaffected by the WebSocket cap.
  assert.equal((await get(server.port, '/api/snapshot')).status, 200);
  const first = sockets.shift();
  first?.close();
  if (first) await once(first, 'close');
  sockets.push(await waitFor(() => open().catch(() => undefined), 'room for a WebSocket'));
});

test('every answer, refusals included, carries the strict security headers', async (t) => {
  const server = await serve(t, { token: 'attack-token-0123456789' });
  const p = server.port;
  const auth = { Authorization: 'Bearer attack-token-0123456789' };
  const answers = [
    await get(p, '/', auth),
    await get(p, '/nope.js', auth),
    await get(p, '/api/snapshot'),
    await get(p, '/api/snapshot', { ...auth, Host: 'evil.example' }),
    await get(p, '/api/snapshot', { ...auth, Origin: 'http://evil.example' }),
    await get(p, '/api/snapshot', auth, 'DELETE'),
  ];
  assert.deepEqual(answers.map((a) => a.status), [200, 404, 401, 403, 403, 405]);
  for (const a of answers) {
    assert.match(a.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.match(a.headers.get('content-security-policy') ?? '', /script-src 'self'(;|$)/);
    assert.equal(a.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(a.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(a.headers.get('x-frame-options'), 'DENY');
  }
});

test('the token is compared with timingSafeEqual on equal-length digests, whatever the presented length', async (t) => {
  const token = 'attack-token-0123456789';
  const server = await serve(t, { token });
  const spy = mock.method(crypto, 'timingSafeEqual');
  t.after(() => spy.mock.restore());
  for (const presented of ['a', 'attack-token-012345678', `${token}x`, 'z'.repeat(4000)]) {
    const calls = spy.mock.callCount();
    assert.equal((await get(server.port, '/api/snapshot', { Authorization: `Bearer ${presented}` })).status, 401, presented);
    const call = spy.mock.calls[calls];
    assert.ok(call, 'compared with timingSafeEqual');
    const [a, b] = call.arguments as unknown as [Buffer, Buffer];
    assert.equal(a.length, 32);
    assert.equal(b.length, 32);
  }
  assert.equal((await get(server.port, '/api/snapshot', { Authorization: `Bearer ${token}` })).status, 200);
});

test('path traversal is impossible in static files, encoded, double-encoded, with backslashes or NUL', async (t) => {
  const server = await serve(t);
  const paths = [
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/..%2fsecret.txt',
    '/..%2f..%2fetc/passwd',
    '/%2e%2e/secret.txt',
    '/%2E%2E%2Fsecret.txt',
    '/%252e%252e/secret.txt',
    '/%252e%252e%252fsecret.txt',
    '/..\\secret.txt',
    '/..%5csecret.txt',
    '/assets\\..\\..\\secret.txt',
    '/assets/%00',
    '/assets/index-AbCd1234.js%00.html',
    '/%2fetc%2fpasswd',
    '//etc/passwd',
    '/..%c0%af..%c0%afsecret.txt',
    '/.%2e/secret.txt',
  ];
  for (const path of paths) {
    const reply = await get(server.port, path);
    assert.ok(reply.status === 404 || reply.status === 400, `${path}: ${reply.status}`);
    assert.doesNotMatch(reply.body, /do not serve|root:/, path);
  }
  assert.equal((await get(server.port, '/assets/index-AbCd1234.js')).status, 200);
});

test('without --allow-actions no operator action runs, over HTTP or WebSocket, even with --allow-changes', { timeout: 60_000 }, async (t) => {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', dataNodes: 2 }, pollIntervalMs: 300 });
  t.after(() => engine.close());
  const server = await serve(t, { engine, allowChanges: true });
  const sim = engine.simulator;
  assert.ok(sim);
  const action = JSON.stringify({ action: { kind: 'stop', nodeId: 2 } });
  for (const path of ['/api/runAction', '/api/actions', '/api/snapshot', '/ws', '/']) {
    const body = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nContent-Length: ${action.length}\r\nConnection: close\r\n\r\n${action}`;
    assert.equal((await raw(server.port, body)).status, 405, path);
  }
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`);
  t.after(() => ws.terminate());
  await once(ws, 'open');
  const answers: Array<Record<string, unknown>> = [];
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as Record<string, unknown>;
    if (frame.type === 'ndbtop:response') answers.push(frame);
  });
  for (const [id, kind] of [[1, 'stop'], [2, 'restart']] as const) ws.send(JSON.stringify({ id, name: 'runAction', request: { action: { kind, nodeId: 2 } } }));
  await waitFor(() => (answers.length === 2 ? true : undefined), 'both answers');
  for (const a of answers) assert.match(JSON.stringify(a), /--allow-actions/);
  assert.equal(sim.model.data.get(2)?.status, 'STARTED');
  // Nothing was sent late either: the node stays up while the engine keeps polling.
  await new Promise((r) => setTimeout(r, 1000));
  assert.equal(sim.model.data.get(2)?.status, 'STARTED');
});
