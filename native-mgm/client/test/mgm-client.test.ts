import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { SPEC_REPLIES, SPEC_REQUESTS } from '../../test/fixtures/spec-transcripts.js';
import { AbortedError, CommandFailedError, ProtocolError, ServerParserError, TimeoutError, UnreachableError } from '../../errors.js';
import { MgmClient, type MgmClientOptions } from '../mgm-client.js';
import type { LinkState } from '../link.js';
import { ScriptedServer, mgmdScript } from './scripted-server.js';

const hostsOf = (...servers: ScriptedServer[]) => servers.map((s) => ({ host: '127.0.0.1', port: s.port, bindAddress: null }));

/** A scripted server and a client on it, both closed when the test ends. */
async function scripted(t: TestContext, script: Parameters<typeof ScriptedServer.start>[0], options: Omit<MgmClientOptions, 'hosts'> = {}) {
  const server = await ScriptedServer.start(script);
  const client = new MgmClient({ hosts: hostsOf(server), ...options });
  t.after(async () => {
    client.close();
    await server.close();
  });
  return { server, client };
}

function waitForState(client: MgmClient, pred: (s: LinkState) => boolean, ms = 10_000): Promise<LinkState> {
  if (pred(client.state)) return Promise.resolve(client.state);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`state never matched; last ${JSON.stringify(client.state)}`));
    }, ms);
    const off = client.onState((s) => {
      if (pred(s)) {
        clearTimeout(timer);
        off();
        resolve(s);
      }
    });
  });
}

test('session bootstrap sends exactly what mgmapi sends, then get status is typed', async (t) => {
  const { server, client } = await scripted(t, mgmdScript(1));
  await client.connect();
  assert.deepEqual(
    server.requests.map((r) => r.raw),
    [SPEC_REQUESTS.getVersion, 'set clientversion\nmajor: 8\nminor: 4\nbuild: 3\n\n', SPEC_REQUESTS.getMgmdNodeId],
  );
  assert.equal(client.session?.mgmdNodeId, 1);
  assert.equal(client.session?.server.string, 'mysql-8.4.3 ndb-8.4.3');
  const nodes = await client.getStatus();
  assert.equal(nodes.length, 7);
  assert.equal(nodes.find((n) => n.isMaster)?.nodeId, 2);
  assert.equal(server.requests.at(-1)?.raw, SPEC_REQUESTS.getStatus);
  await client.getStatus(['NDB', 'MGM']);
  assert.equal(server.requests.at(-1)?.raw, 'get status\ntypes:"NDB MGM"\n\n');
  assert.equal(client.state.status, 'connected');
});

test('a reply delivered one byte per write parses the same', async (t) => {
  const { client } = await scripted(t, mgmdScript(1, (req) => (req.command === 'get status' ? { chunks: [...SPEC_REPLIES.getStatus] } : undefined)));
  const nodes = await client.getStatus();
  assert.deepEqual(nodes.map((n) => n.nodeId), [1, 2, 3, 4, 5, 6, 7]);
});

test('requests on one connection are serialised in call order', async (t) => {
  const { server, client } = await scripted(t, mgmdScript(1));
  await client.connect();
  const before = server.requests.length;
  await Promise.all([client.getStatus(), client.checkConnection(), client.getStatus(['API'])]);
  assert.deepEqual(server.requests.slice(before).map((r) => r.command), ['get status', 'check connection', 'get status']);
});

test('operator commands send the protocol arguments and surface refusals verbatim', async (t) => {
  const { server, client } = await scripted(t, mgmdScript(1, (req) => {
      if (req.command === 'restart node v2') return req.args.node === '3' ? SPEC_REPLIES.restartRefused : SPEC_REPLIES.restartOk;
      if (req.command === 'stop v2') return SPEC_REPLIES.stopOk;
      if (req.command === 'start backup') return SPEC_REPLIES.startBackup;
      if (req.command === 'enter single user') return SPEC_REPLIES.enterSingleUser;
      if (req.command === 'dump state') return SPEC_REPLIES.dumpState;
      if (req.command === 'report event') return SPEC_REPLIES.reportEvent;
      return undefined;
    }),);
  await assert.rejects(client.restart([3]), (e: unknown) => e instanceof CommandFailedError && e.result.startsWith('5028-Node shutdown would cause system crash'));
  assert.equal(server.requests.at(-1)?.raw, 'restart node v2\nnode:"3"\ninitialstart: 0\nnostart: 0\nabort: 0\nforce: 0\n\n');
  assert.deepEqual(await client.restart([4, 5], { initial: true, noStart: true }), { count: 1, disconnect: false });
  assert.equal(server.requests.at(-1)?.raw, 'restart node v2\nnode:"4 5"\ninitialstart: 1\nnostart: 1\nabort: 0\nforce: 0\n\n');
  assert.deepEqual(await client.stop([3]), { count: 1, disconnect: false });
  assert.equal(server.requests.at(-1)?.raw, 'stop v2\nnode:"3"\nabort: 0\nforce: 0\n\n');
  assert.deepEqual(await client.startBackup(), { backupId: 12 });
  assert.equal(server.requests.at(-1)?.raw, 'start backup\ncompleted: 2\nbackuppoint: 0\n\n');
  await client.enterSingleUser(50);
  assert.equal(server.requests.at(-1)?.raw, SPEC_REQUESTS.enterSingleUser);
  await client.dumpState(2, [1000]);
  assert.equal(server.requests.at(-1)?.raw, 'dump state\nnode: 2\nargs:"1000"\n\n');
  await client.reportEvent([65585, 1819043144, 111]);
  assert.equal(server.requests.at(-1)?.raw, 'report event\nlength: 3\ndata:"65585 1819043144 111"\n\n');
  await assert.rejects(client.restart([]), RangeError);
});

test('a server that stalls: the call times out, the session is replaced, the next call succeeds', async (t) => {
  let stalls = 1;
  const { client } = await scripted(t, mgmdScript(1, (req) => (req.command === 'get status' && stalls-- > 0 ? { stall: true } : undefined)), { requestTimeoutMs: 1500, backoff: { baseMs: 10, capMs: 50 } });
  await client.connect();
  // The timeout also bounds the next call's new session and reply: 300 ms was too short for that on a loaded machine.
  await assert.rejects(client.getStatus(), TimeoutError);
  const nodes = await client.getStatus();
  assert.equal(nodes.length, 7);
});

test('garbage instead of a reply is a protocol error; the client reconnects for the next call', async (t) => {
  let garbage = 1;
  const { client } = await scripted(t, mgmdScript(1, (req) => (req.command === 'get status' && garbage-- > 0 ? 'HTTP/1.1 400 Bad Request\r\n\r\n' : undefined)), { backoff: { baseMs: 10, capMs: 50 } });
  await assert.rejects(client.getStatus(), (e: unknown) => e instanceof ProtocolError && /expected reply "node status"/.test(e.message));
  assert.equal((await client.getStatus()).length, 7);
});

test('a parser error on a request with arguments resynchronises before the next request', async (t) => {
  const { server, client } = await scripted(t, mgmdScript(1, (req) => {
      // What a server without the command does: one error for the command, one per leftover argument line.
      if (req.command === 'enter single user') return "result: Unknown command, 'enter single user'\n\nresult: Unknown command, 'nodeId: 50'\n\n";
      return undefined;
    }),);
  await assert.rejects(client.enterSingleUser(50), ServerParserError);
  assert.equal((await client.getStatus()).length, 7);
  assert.deepEqual(server.requests.slice(-2).map((r) => r.command), ['check connection', 'get status']);
});

test('cancelling a call in flight rejects at once with AbortedError', async (t) => {
  const { client } = await scripted(t, mgmdScript(1, (req) => (req.command === 'get status' ? { stall: true } : undefined)), { reconnect: false });
  await client.connect();
  const ac = new AbortController();
  const pending = client.getStatus(undefined, { signal: ac.signal });
  setTimeout(() => ac.abort(), 20);
  await assert.rejects(pending, AbortedError);
  const already = new AbortController();
  already.abort();
  await assert.rejects(client.checkConnection({ signal: already.signal }), AbortedError);
});

test('a restart given up before its reply ends its session: the late reply is never read as the next request\'s', async (t) => {
  const late = 'restart reply\nresult: Ok\nrestarted: 1\ndisconnect: 0\n\n';
  // As a real server, one session answers in order: its reply to a later request follows the late restart reply.
  const busy = new WeakSet<object>();
  const { server, client } = await scripted(t, mgmdScript(1, (req, socket) => {
      if (req.command === 'restart node v2') {
        busy.add(socket);
        setTimeout(() => socket.writable && socket.write(late), 150);
        return { stall: true };
      }
      if (req.command === 'get status' && busy.has(socket)) {
        setTimeout(() => socket.writable && socket.write(SPEC_REPLIES.getStatus), 200);
        return { stall: true };
      }
      return undefined;
    }), { backoff: { baseMs: 10, capMs: 50 } });
  await client.connect();
  const giveUp = new AbortController();
  const pending = client.restart([3], {}, { signal: giveUp.signal });
  setTimeout(() => giveUp.abort(), 20);
  await assert.rejects(pending, AbortedError);
  assert.equal((await client.getStatus()).length, 7);
  assert.equal(server.requests.filter((r) => r.command === 'get version').length, 2, 'asked on a session of its own');
});

test('no server reachable: connect rejects with every attempt listed', async () => {
  const a = await ScriptedServer.start(mgmdScript());
  const b = await ScriptedServer.start(mgmdScript());
  const hosts = hostsOf(a, b);
  await a.close();
  await b.close();
  const client = new MgmClient({ hosts, connectTimeoutMs: 1000 });
  await assert.rejects(client.connect(), (e: unknown) => e instanceof UnreachableError && e.attempts.length === 2);
  client.close();
});

test('losing the management server fails over to the next one and counts it', async (t) => {
  const first = await ScriptedServer.start(mgmdScript(1));
  const second = await ScriptedServer.start(mgmdScript(2));
  const client = new MgmClient({ hosts: hostsOf(first, second), backoff: { baseMs: 10, capMs: 50 } });
  t.after(async () => {
    client.close();
    await first.close();
    await second.close();
  });
  await client.connect();
  assert.equal(client.state.port, first.port);
  await first.close();
  const state = await waitForState(client, (s) => s.status === 'connected' && s.port === second.port);
  assert.equal(state.failovers, 1);
  assert.equal(client.session?.mgmdNodeId, 2);
  assert.equal((await client.getStatus()).length, 7);
});

test('with every server down the client keeps retrying and comes back when one returns', async (t) => {
  const { server, client } = await scripted(t, mgmdScript(1), { backoff: { baseMs: 10, capMs: 40 } });
  await client.connect();
  server.dropAll();
  await waitForState(client, (s) => s.status === 'reconnecting');
  await waitForState(client, (s) => s.status === 'connected');
  assert.equal(client.state.failovers, 0, 'same server again is not a failover');
  assert.equal((await client.getStatus()).length, 7);
});

test('close ends the session politely and leaves no socket behind', async () => {
  const server = await ScriptedServer.start(mgmdScript(1));
  const client = new MgmClient({ hosts: hostsOf(server) });
  await client.connect();
  client.close();
  assert.equal(client.state.status, 'closed');
  await assert.rejects(client.getStatus(), /closed/);
  for (let i = 0; i < 100 && server.connectionCount > 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(server.connectionCount, 0);
  assert.equal(server.requests.at(-1)?.raw, SPEC_REQUESTS.endSession, 'end session is sent before the socket closes');
  await server.close();
});
