import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { Agent, get as httpsGet } from 'node:https';
import { join } from 'node:path';
import { connect, type Socket } from 'node:net';
import { test, type TestContext } from 'node:test';
import WebSocket from 'ws';
import { certDir } from '../../../native-mgm/test/tls-fixtures.js';
import { PKI_FILES } from '../../../native-mgm/tls/pki-files.js';
import { DEFAULT_BODY_PACE } from '../access/body-pace.js';
import { connectionSource } from '../access/connection-slots.js';
import { DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_PRE_HEADER_PER_SOURCE, startServeServer, type ServeOptions } from '../serve-server.js';
import { WS_PATH } from '../transport/ws-server.js';
import { createFixtureEngine } from './fixture-engine.js';
import { makeStaticRoot, waitFor } from './helpers.js';

// Issue 24 item 5: 256 TCP connections that never sent a byte took every slot, so every user was refused until
// the headers timeout cut them (~12 s), again and again; off loopback no token was needed to do it.

async function serve(t: TestContext, options: Partial<ServeOptions> = {}) {
  const dir = await makeStaticRoot();
  // Headers timeout far beyond the test: a silent socket goes only if the slot policy closes it.
  const server = await startServeServer({ engine: createFixtureEngine(), staticDir: dir.root, port: 0, headersTimeoutMs: 600_000, ...options });
  t.after(async () => {
    await server.close();
    await dir.cleanup();
  });
  return server;
}

interface Silent {
  socket: Socket;
  closedByServer: boolean;
}

/** `count` connections from the loopback address `from` that send nothing; each notes whether the server closed it. */
async function silent(t: TestContext, port: number, from: string, count: number): Promise<Silent[]> {
  const out: Silent[] = [];
  for (let i = 0; i < count; i += 1) {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from });
    const entry: Silent = { socket, closedByServer: false };
    socket.on('error', () => undefined);
    socket.on('close', () => (entry.closedByServer = true));
    t.after(() => socket.destroy());
    await once(socket, 'connect');
    out.push(entry);
  }
  return out;
}

/** A request on its own connection, as a browser sends it; resolves with the status. */
async function get(port: number, path: string, from = '127.0.0.1', socket?: Socket): Promise<{ status: number; head: string; socket: Socket }> {
  const s = socket ?? connect({ port, host: '127.0.0.1', localAddress: from });
  s.on('error', () => undefined);
  if (!socket) await once(s, 'connect');
  s.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUser-Agent: test\r\nAccept: */*\r\n\r\n`);
  const chunk = await new Promise<Buffer>((resolve, reject) => {
    s.once('data', resolve);
    s.once('close', () => reject(new Error(`GET ${path} from ${from}: the server closed the connection without an answer`)));
  });
  const head = chunk.toString('latin1').split('\r\n\r\n')[0] ?? '';
  return { status: Number(head.split(' ')[1]), head, socket: s };
}

/** The server has accepted (and so counted) every connection made so far: it answers a request made after them. */
async function settled(port: number): Promise<void> {
  const { socket } = await get(port, '/api/snapshot', '127.0.0.99');
  socket.destroy();
}

const upgradeRequest = (port: number, path = WS_PATH): string =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`;

test('silent connections filling every slot do not lock out a browser: its GET and its WebSocket are served', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  const perSource = DEFAULT_MAX_PRE_HEADER_PER_SOURCE;
  // 256 silent sockets, each source at its cap: every slot Node's maxConnections had is taken.
  const sources = Array.from({ length: DEFAULT_MAX_CONNECTIONS / perSource }, (_, i) => `127.0.0.${i + 2}`);
  const all: Silent[] = [];
  for (const from of sources) all.push(...(await silent(t, server.port, from, perSource)));
  await settled(server.port);
  const page = await get(server.port, '/');
  assert.equal(page.status, 200);
  const again = await get(server.port, '/api/snapshot', undefined, page.socket);
  assert.equal(again.status, 200, 'the keep-alive connection of a client past its headers is kept');
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`);
  t.after(() => ws.terminate());
  const frame = new Promise<Record<string, unknown>>((resolve) => ws.on('message', (d) => resolve(JSON.parse(String(d)) as Record<string, unknown>)));
  await once(ws, 'open');
  ws.send(JSON.stringify({ id: 1, name: 'getAppInfo', request: {} }));
  assert.ok(await frame);
  // A quarter of the slots is kept for clients past their headers: silent ones hold at most the rest, and the
  // ones closed for newer connections are the oldest.
  const share = (DEFAULT_MAX_CONNECTIONS * 3) / 4;
  await waitFor(() => (all.filter((s) => !s.closedByServer).length <= share ? true : undefined), `at most ${share} silent sockets open`);
  const firstOpen = all.findIndex((s) => !s.closedByServer);
  assert.ok(all.slice(firstOpen).every((s) => !s.closedByServer), 'only the oldest silent sockets were closed');
});

test('one source holds at most its share of connections without headers: its own oldest make room', { timeout: 60_000 }, async (t) => {
  const server = await serve(t, { maxPreHeaderPerSource: 4 });
  const first = await silent(t, server.port, '127.0.0.2', 4);
  const other = await silent(t, server.port, '127.0.0.3', 4);
  await settled(server.port);
  assert.deepEqual([...first, ...other].map((s) => s.closedByServer), Array(8).fill(false), 'within the cap nothing is closed');
  const more = await silent(t, server.port, '127.0.0.2', 3);
  await waitFor(() => (first.slice(0, 3).every((s) => s.closedByServer) ? true : undefined), "the source's three oldest closed");
  await settled(server.port);
  assert.deepEqual(first.map((s) => s.closedByServer), [true, true, true, false], "the source's three oldest");
  assert.deepEqual(more.map((s) => s.closedByServer), [false, false, false]);
  assert.deepEqual(other.map((s) => s.closedByServer), [false, false, false, false], 'other sources are untouched');
  // A client from the capped address is still served: it sends its headers at once, so it is never the oldest.
  assert.equal((await get(server.port, '/api/snapshot', '127.0.0.2')).status, 200);
});

test('when every slot holds a client in use, a new connection is refused at accept', { timeout: 60_000 }, async (t) => {
  const server = await serve(t, { maxConnections: 4 });
  // WebSockets that answer their pings: unlike idle keep-alives, dribbled bodies or unread WebSockets, none yields.
  for (let i = 0; i < 4; i += 1) {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`);
    t.after(() => ws.terminate());
    await once(ws, 'open');
  }
  const [extra] = await silent(t, server.port, '127.0.0.2', 1);
  assert.ok(extra);
  if (!extra.closedByServer) await once(extra.socket, 'close');
});

test('when every slot is taken, an idle keep-alive yields first, then a body behind its pace, then an unread WebSocket', { timeout: 60_000 }, async (t) => {
  // No cut by the pace within the test: the body goes only by yielding its slot.
  const server = await serve(t, { maxConnections: 4, heartbeatMs: 200, bodyPace: { ...DEFAULT_BODY_PACE, graceMs: 600_000 } });
  const watch = (s: Socket): (() => boolean) => {
    s.on('error', () => undefined);
    let gone = false;
    s.once('close', () => (gone = true));
    return () => gone;
  };
  // A WebSocket that answers no ping, as one that reads nothing looks to the server (this one reads, to see its close).
  const unread = connect(server.port, '127.0.0.1');
  let upgraded = '';
  unread.on('data', (d: Buffer) => (upgraded += d.toString('latin1')));
  unread.write(upgradeRequest(server.port));
  // After 1.5 s (three beats at least) without a pong it counts as unread, from when the server took the upgrade
  // (its 101), which on a loaded machine comes well after the request was written.
  await waitFor(() => (upgraded.startsWith('HTTP/1.1 101') ? true : undefined), 'the unread WebSocket upgraded');
  await new Promise((r) => setTimeout(r, 1700));
  const body = connect(server.port, '127.0.0.1');
  body.write(`POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`);
  const idle = (await get(server.port, '/api/snapshot')).socket;
  const gone = { idle: watch(idle), body: watch(body), unread: watch(unread) };
  const closedSoFar = (): string => Object.entries(gone).filter(([, g]) => g()).map(([k]) => k).join(',');
  // Each newcomer is a page's WebSocket that reads: in use, it keeps the slot it got, and the next one needs another.
  const pages: WebSocket[] = [];
  for (const want of ['', 'idle', 'idle,body', 'idle,body,unread']) {
    const page = new WebSocket(`ws://127.0.0.1:${server.port}/ws`);
    t.after(() => page.terminate());
    await once(page, 'open');
    pages.push(page);
    await waitFor(() => (closedSoFar() === want ? true : undefined), `closed by now: ${want || 'none'} (closed: ${closedSoFar()})`);
  }
  const [extra] = await silent(t, server.port, '127.0.0.2', 1);
  assert.ok(extra);
  if (!extra.closedByServer) await once(extra.socket, 'close');
  assert.ok(pages.every((p) => p.readyState === WebSocket.OPEN), 'the WebSockets that read kept their slots');
});

test('a refused upgrade is closed at once, even when its client reads nothing: it holds no slot', { timeout: 60_000 }, async (t) => {
  const server = await serve(t, { maxConnections: 2, reservedForRequests: 1 });
  const refused = connect(server.port, '127.0.0.1');
  refused.on('error', () => undefined);
  refused.pause();
  t.after(() => refused.destroy());
  refused.write(upgradeRequest(server.port, '/not-the-ws'));
  // Time for the server to read and refuse it (later, it would only be the oldest pending connection, closed anyway).
  await new Promise((r) => setTimeout(r, 500));
  const page = new WebSocket(`ws://127.0.0.1:${server.port}/ws`);
  t.after(() => page.terminate());
  await once(page, 'open');
  // The 404 half-closed, waiting for a client that never reads it, would keep the second slot: this GET is reset then.
  assert.equal((await get(server.port, '/api/snapshot')).status, 200);
});

test('a refused request does not keep its connection: without the token no slot is held past the headers', async (t) => {
  const server = await serve(t, { host: '127.0.0.1', token: 'slot-token-0123456789' });
  const refused = await get(server.port, '/api/snapshot');
  assert.equal(refused.status, 401);
  // Said and done at once, not after the keep-alive timeout.
  assert.match(refused.head, /\r\nConnection: close\r\n/i);
  if (!refused.socket.destroyed) await once(refused.socket, 'close');
});

test('the per-source cap counts an IPv4 address, IPv4-mapped or not, and an IPv6 /64', () => {
  assert.equal(connectionSource('10.0.0.7'), '10.0.0.7');
  assert.equal(connectionSource('::ffff:10.0.0.7'), '10.0.0.7');
  assert.equal(connectionSource('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  assert.equal(connectionSource('2001:0db8:0001:0002:bbbb:cccc:dddd:eeee'), '2001:db8:1:2::/64');
  assert.equal(connectionSource('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(connectionSource('::1'), '0:0:0:0::/64');
});

test('over HTTPS too: a connection past its TLS handshake and headers leaves the pending share', { timeout: 60_000 }, async (t) => {
  const dir = await certDir(t);
  const ca = await readFile(join(dir, PKI_FILES.caCert), 'utf8');
  const https = { certFile: join(dir, PKI_FILES.mgmdCert), keyFile: join(dir, PKI_FILES.mgmdKey) };
  // Two pending slots and two kept for clients past their headers.
  const server = await serve(t, { https, maxConnections: 4, reservedForRequests: 2 });
  const agent = new Agent({ keepAlive: true, maxSockets: 2, ca });
  t.after(() => agent.destroy());
  const fetchOnce = (): Promise<string> =>
    new Promise((resolve, reject) => {
      const req = httpsGet(`https://127.0.0.1:${server.port}/api/snapshot`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(`${res.statusCode ?? 0}${req.reusedSocket ? ' on its open connection' : ''}`));
      }).on('error', reject);
    });
  // Two keep-alive TLS clients at once: both get past their headers and keep their connections.
  assert.deepEqual(await Promise.all([fetchOnce(), fetchOnce()]), ['200', '200']);
  const quiet = await silent(t, server.port, '127.0.0.2', 3);
  await waitFor(() => (quiet[0]?.closedByServer ? true : undefined), 'the oldest silent socket closed for the third');
  assert.deepEqual(quiet.map((s) => s.closedByServer), [true, false, false]);
  // The TLS clients kept their slots: both answer again on their open connections.
  assert.deepEqual(await Promise.all([fetchOnce(), fetchOnce()]), ['200 on its open connection', '200 on its open connection']);
});

test('--metrics-only: an upgrade request is answered and closed, not left holding its slot', async (t) => {
  const server = await serve(t, { metricsOnly: true });
  const s = connect(server.port, '127.0.0.1');
  s.on('error', () => undefined);
  await once(s, 'connect');
  let answer = '';
  s.on('data', (d: Buffer) => (answer += d.toString('latin1')));
  s.write(upgradeRequest(server.port));
  await once(s, 'close');
  assert.match(answer, /^HTTP\/1\.1 404 /);
});

test('closing an HTTPS server closes a connection still in its TLS handshake, not waiting for the handshake timeout', { timeout: 60_000 }, async (t) => {
  const dir = await certDir(t);
  const ca = await readFile(join(dir, PKI_FILES.caCert), 'utf8');
  const root = await makeStaticRoot();
  t.after(() => root.cleanup());
  const server = await startServeServer({ engine: createFixtureEngine(), staticDir: root.root, port: 0, https: { certFile: join(dir, PKI_FILES.mgmdCert), keyFile: join(dir, PKI_FILES.mgmdKey) } });
  const [quiet] = await silent(t, server.port, '127.0.0.2', 1);
  assert.ok(quiet);
  // Served after it, so the silent connection was accepted (not still in the listen backlog) when the server closes.
  const status = await new Promise<number>((resolve, reject) => {
    httpsGet(`https://127.0.0.1:${server.port}/api/snapshot`, { ca, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
  assert.equal(status, 200);
  await server.close();
  if (!quiet.closedByServer) await once(quiet.socket, 'close');
  assert.ok(quiet.closedByServer);
});

// Issue 35 item 5: 256 request bodies dribbled a byte every 5 s, 256 idle keep-alives or 256 unread WebSockets
// took every slot past their headers, and every normal GET was reset for as long as they kept at it.

const LOOPBACK_SOURCES = 8;

/**
 * `count` hostile connections from a few loopback sources, each started by `begin` (which may read or not); one
 * the server closes is replaced at once when the client notices (it reads), so the slots stay taken throughout.
 */
function flood(t: TestContext, port: number, count: number, begin: (s: Socket) => void): { stop(): void; replaced(): number } {
  let stopped = false;
  let opened = 0;
  const open = (i: number): void => {
    if (stopped) return;
    opened += 1;
    const s = connect({ port, host: '127.0.0.1', localAddress: `127.0.0.${2 + (i % LOOPBACK_SOURCES)}` });
    s.on('error', () => undefined);
    s.once('connect', () => begin(s));
    s.once('close', () => open(i));
    t.after(() => s.destroy());
  };
  for (let i = 0; i < count; i += 1) open(i);
  return {
    stop: () => void (stopped = true),
    replaced: () => opened - count,
  };
}

/**
 * A browser's GET on a new connection every 200 ms for `forMs` (from 127.0.0.1, which no attacker uses); each must be
 * answered, not reset. Returns the latencies; a bound of 10 s per GET tells a slow answer from none.
 */
async function normalGets(port: number, forMs: number): Promise<number[]> {
  const latencies: number[] = [];
  const until = Date.now() + forMs;
  while (Date.now() < until) {
    const started = performance.now();
    const answer = await Promise.race([
      get(port, '/api/snapshot'),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer to a normal GET within 10 s')), 10_000).unref()),
    ]);
    latencies.push(performance.now() - started);
    answer.socket.destroy();
    assert.equal(answer.status, 200);
    await new Promise((r) => setTimeout(r, 200));
  }
  return latencies;
}

/** A flood of 256 begun by `begin` while a browser GETs for `forMs`, every GET answered (the worst latency is printed). */
async function getsUnderFlood(t: TestContext, port: number, forMs: number, begin: (s: Socket) => void): Promise<ReturnType<typeof flood>> {
  const attack = flood(t, port, DEFAULT_MAX_CONNECTIONS, begin);
  await settled(port);
  const latencies = await normalGets(port, forMs);
  t.diagnostic(`${latencies.length} normal GETs answered, the worst in ${Math.max(...latencies).toFixed(0)} ms`);
  return attack;
}

test('256 request bodies dribbled a byte every 5 s do not lock a browser out: its GETs are answered throughout', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  const headers = `POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
  const drips = new Set<NodeJS.Timeout>();
  t.after(() => drips.forEach(clearInterval));
  const attack = await getsUnderFlood(t, server.port, 6000, (s) => {
    s.on('data', () => undefined);
    s.write(headers);
    const drip = setInterval(() => s.write('{'), 5000);
    drips.add(drip);
    s.once('close', () => (clearInterval(drip), drips.delete(drip)));
  });
  attack.stop();
  assert.ok(attack.replaced() > 0, 'the attackers were replaced as the server closed them, so the slots stayed full');
});

test('256 idle keep-alive connections do not lock a browser out: its GETs are answered throughout', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  const attack = await getsUnderFlood(t, server.port, 6000, (s) => {
    s.on('data', () => undefined);
    s.write(`GET /api/snapshot HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
  });
  attack.stop();
  assert.ok(attack.replaced() > 0, 'the attackers were replaced as the server closed them, so the slots stayed full');
});

test('256 WebSockets that read nothing do not lock a browser out: its GETs are answered and its WebSocket gets in', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  // Reads nothing at all, not even the answer to its upgrade: pings and pushes pile up unread.
  const attack = await getsUnderFlood(t, server.port, 4000, (s) => {
    s.pause();
    s.write(upgradeRequest(server.port));
  });
  // The WebSocket cap is full of clients that answered no ping for seconds: the oldest makes room for a reader.
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`);
  t.after(() => ws.terminate());
  const frame = new Promise((resolve) => ws.once('message', resolve));
  await once(ws, 'open');
  assert.ok(await frame);
  attack.stop();
});

test('a body past its grace and behind its pace gets 408 and its connection closed; one on pace is read whole', { timeout: 60_000 }, async (t) => {
  const server = await serve(t, { bodyPace: { graceMs: 1000, minBytesPerSecond: 1024 } });
  const post = (length: number): Socket => {
    const s = connect(server.port, '127.0.0.1');
    s.on('error', () => undefined);
    s.write(`POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`);
    return s;
  };
  const answerOf = (s: Socket): Promise<string> => {
    let text = '';
    s.on('data', (d: Buffer) => (text += d.toString('latin1')));
    return new Promise((resolve) => s.once('close', () => resolve(text)));
  };
  // A byte every 200 ms (5 B/s) for up to 20 s: only the pace ends it.
  const slow = post(100);
  const slowAnswer = answerOf(slow);
  const drip = setInterval(() => slow.write(' '), 200);
  t.after(() => clearInterval(drip));
  // 2 KiB/s for 3 s, past the grace: on pace, so read whole and handed to the engine (which has no runs).
  const body = `{"name":"paced"}${' '.repeat(6 * 1024 - 16)}`;
  const paced = post(body.length);
  const pacedAnswer = answerOf(paced);
  for (let i = 0; i < 6; i += 1) {
    paced.write(body.slice(i * 1024, (i + 1) * 1024));
    await new Promise((r) => setTimeout(r, 500));
  }
  const cut = await slowAnswer;
  clearInterval(drip);
  assert.match(cut, /^HTTP\/1\.1 408 /);
  assert.match(cut, /the request body came too slowly \(\d+ bytes\): send it within 1 s, or at 1 KiB\/s at least/);
  const read = await Promise.race([pacedAnswer, new Promise<string>((resolve) => setTimeout(() => resolve(''), 2000))]);
  paced.destroy();
  assert.doesNotMatch(read, /^HTTP\/1\.1 408 /);
  assert.match(read, /not part of the fixture/, 'the whole body was read and handed on');
});
