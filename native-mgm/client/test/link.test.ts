import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { MgmClient, type MgmClientOptions } from '../mgm-client.js';
import type { LinkState } from '../link.js';
import { ScriptedServer, mgmdScript, type ScriptAction } from './scripted-server.js';

const NODEID_REPLY = 'get mgmd nodeid reply\nnodeid:1\n\n';
const hostsOf = (server: ScriptedServer) => [{ host: '127.0.0.1', port: server.port, bindAddress: null }];

/** A server that sends one byte too many with the last bootstrap reply in the sessions `bad` picks (1-based). */
async function extraByteServer(t: TestContext, bad: (session: number) => boolean) {
  let sessions = 0;
  const server = await ScriptedServer.start(
    mgmdScript(1, (req): ScriptAction | undefined => {
      if (req.command === 'get version') sessions += 1;
      if (req.command === 'get mgmd nodeid' && bad(sessions)) return `${NODEID_REPLY}x\n`;
      if (req.command === 'get status' && bad(sessions)) return { close: true };
      return undefined;
    }),
  );
  t.after(() => server.close());
  return { server, sessions: () => sessions };
}

function client(t: TestContext, server: ScriptedServer, options: Omit<MgmClientOptions, 'hosts'>): MgmClient {
  const c = new MgmClient({ hosts: hostsOf(server), ...options });
  t.after(() => c.close());
  return c;
}

function until(c: MgmClient, pred: (s: LinkState) => boolean): Promise<LinkState> {
  if (pred(c.state)) return Promise.resolve(c.state);
  return new Promise((resolve) => {
    const off = c.onState((s) => {
      if (!pred(s)) return;
      off();
      resolve(s);
    });
  });
}

// Issue 15 (1a): `show` reconnected ~257 times a second forever.
test('without reconnect, a session the server breaks during the bootstrap fails the connect; nothing is redialled', { timeout: 30_000 }, async (t) => {
  const { sessions, server } = await extraByteServer(t, () => true);
  const c = client(t, server, { reconnect: false, requestTimeoutMs: 60_000, connectTimeoutMs: 60_000 });
  await assert.rejects(c.connect(), (err: Error & { code?: string }) => err.code === 'PROTOCOL');
  assert.equal(sessions(), 1);
  assert.equal(c.state.status, 'idle');
});

test('without reconnect, a session lost after the bootstrap fails every later call; nothing is redialled', { timeout: 30_000 }, async (t) => {
  let sessions = 0;
  const server = await ScriptedServer.start(
    mgmdScript(1, (req) => {
      if (req.command === 'get version') sessions += 1;
      return req.command === 'get status' ? { close: true } : undefined;
    }),
  );
  t.after(() => server.close());
  const c = client(t, server, { reconnect: false, requestTimeoutMs: 60_000, connectTimeoutMs: 60_000 });
  await c.connect();
  await assert.rejects(c.getStatus(), (err: Error & { code?: string }) => err.code === 'CLOSED');
  await assert.rejects(c.getStatus(), (err: Error & { code?: string }) => err.code === 'CLOSED');
  await assert.rejects(c.checkConnection(), (err: Error & { code?: string }) => err.code === 'CLOSED');
  assert.equal(sessions, 1, 'a lost link without reconnect was redialled');
  assert.deepEqual([c.state.status, server.connectionCount], ['idle', 0]);
});

async function lostThenBroken(t: TestContext, bad: (session: number) => boolean, backoff: MgmClientOptions['backoff']) {
  const { server, sessions } = await extraByteServer(t, (n) => n > 1 && bad(n));
  const c = client(t, server, { reconnect: true, backoff });
  await c.connect();
  assert.equal(c.state.status, 'connected');
  server.dropAll();
  await until(c, (s) => s.status === 'reconnecting');
  return { server, sessions, c };
}

// Issue 15 (1b): `serve` stayed `reconnecting` with 0 nodes forever once the server answered normally again.
test('with reconnect, a server that breaks sessions for a while and then answers normally gets a lasting session', { timeout: 60_000 }, async (t) => {
  const { sessions, c } = await lostThenBroken(t, (n) => n <= 5, { baseMs: 20, capMs: 200 });
  await until(c, (s) => s.status === 'connected' && sessions() > 5);
  const nodes = await c.getStatus(undefined, { timeoutMs: 30_000 });
  assert.equal(nodes.length, 7);
  assert.equal(sessions(), 6, 'each broken session cost one dial, then the good one stayed');
});

test('sessions that end before they stayed up are redialled after growing delays, never at once', { timeout: 60_000 }, async (t) => {
  // Jitter pinned to the top of the range: waits of ~100, 200, 400 ms. The reported loop redialled at once.
  const { sessions, c, server } = await lostThenBroken(t, () => true, { baseMs: 100, capMs: 400, random: () => 0.999 });
  const lostAt = Date.now();
  await until(c, () => sessions() >= 5);
  const elapsed = Date.now() - lostAt;
  assert.ok(elapsed >= 600, `4 redials within ${elapsed} ms of the loss: no backoff between broken sessions`);
  assert.ok(server.connectionCount <= 1, 'never two sessions at once');
});

// The deadline of a call covers dialling and setup, not only the request itself.
test('a call on an idle link respects its own deadline even while the bootstrap stalls', { timeout: 30_000 }, async (t) => {
  const server = await ScriptedServer.start(mgmdScript(1, (req) => (req.command === 'get version' ? { stall: true } : undefined)));
  t.after(() => server.close());
  const c = client(t, server, { reconnect: false, requestTimeoutMs: 120_000, connectTimeoutMs: 120_000 });
  await assert.rejects(c.getStatus(undefined, { timeoutMs: 300 }), (err: Error & { code?: string }) => err.code === 'TIMEOUT');
});

test('an aborted call abandons the dial it started', { timeout: 30_000 }, async (t) => {
  const server = await ScriptedServer.start(mgmdScript(1, (req) => (req.command === 'get version' ? { stall: true } : undefined)));
  t.after(() => server.close());
  const c = client(t, server, { reconnect: false, requestTimeoutMs: 120_000, connectTimeoutMs: 120_000 });
  const abort = new AbortController();
  const pending = c.connect(abort.signal);
  await until(c, (s) => s.status === 'connecting');
  while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
  abort.abort();
  await assert.rejects(pending, (err: Error & { code?: string }) => err.code === 'ABORTED');
  await until(c, (s) => s.status === 'idle');
});
