import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { AuthorizationError, TlsError, type TlsFailure } from '../errors.js';
import { EventStream } from '../client/event-stream.js';
import { MgmClient } from '../client/mgm-client.js';
import { mgmdScript, ScriptedServer } from '../client/test/scripted-server.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../sim/index.js';
import type { MgmTlsOptions } from '../tls/credentials.js';
import { expandSearchPath, PKI_FILES } from '../tls/pki-files.js';
import type { ClusterEvent } from '../types.js';
import { certDir, emptyDir } from './tls-fixtures.js';
import { waitUntil } from './wait.js';

async function sim(t: TestContext, options: SimulatorOptions): Promise<Simulator> {
  const s = await startSimulator({ dataNodes: 2, replicas: 2, apiNodes: 2, scenario: 'idle', speed: 50, ...options });
  t.after(() => s.close());
  return s;
}

function client(t: TestContext, connectstring: string, tls: MgmTlsOptions, reconnect = true): MgmClient {
  const c = new MgmClient({ connectstring, tls, reconnect, backoff: { baseMs: 10, capMs: 100 } });
  t.after(() => c.close());
  return c;
}

async function tlsFailure(promise: Promise<unknown>): Promise<TlsError> {
  const err = await promise.then(
    () => assert.fail('expected a TLS failure'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof TlsError, `expected TlsError, got ${String(err)}`);
  return err;
}

async function refused(t: TestContext, tls: MgmTlsOptions, sim: Simulator, reason: TlsFailure, text: RegExp): Promise<void> {
  const c = client(t, sim.connectstring, tls, false);
  const err = await tlsFailure(c.getStatus());
  assert.equal(err.reason, reason, err.message);
  assert.match(err.message, text);
}

test('search path as NDB expands it: separators, $VARIABLES, "." and dropped empty expansions', () => {
  const env = { HOME: '/home/op', NDB_TLS: '/srv/tls' };
  assert.deepEqual(expandSearchPath('$HOME/ndb-tls:/etc/ndb-tls', env), ['/home/op/ndb-tls', '/etc/ndb-tls']);
  assert.deepEqual(expandSearchPath('$NDB_TLS:$UNSET_VARIABLE:.', env), ['/srv/tls', '.']);
  assert.deepEqual(expandSearchPath('.', env), ['.']);
  assert.deepEqual(expandSearchPath('', env), []);
});

test('strict against a TLS-only server: every command session is TLS 1.3, the server certificate is known', async (t) => {
  const dir = await certDir(t);
  const s = await sim(t, { tls: { searchPath: dir, require: true } });
  // Explicit files (an own PKI) win over the search path, which here holds nothing.
  const none = await emptyDir(t);
  const files = { caFile: join(dir, PKI_FILES.caCert), certFile: join(dir, PKI_FILES.apiCert), keyFile: join(dir, PKI_FILES.apiKey) };
  const c = client(t, s.connectstring, { mode: 'strict', searchPath: none, ...files });
  const nodes = await c.getStatus();
  assert.ok(nodes.some((n) => n.type === 'NDB'));
  assert.equal(c.tls?.secured, true);
  assert.equal(c.tls?.protocol, 'TLSv1.3');
  assert.match(c.tls?.server?.subject ?? '', /NDB Management Node/);
  assert.match(c.tls?.server?.issuer ?? '', /MySQL NDB Cluster First Certificate/);
  assert.ok((c.tls?.server?.validTo ?? 0) > Date.now());
  const certs = await c.listCerts();
  assert.equal(certs.length, 1);
  assert.match(certs[0]?.name ?? '', /^NDB Node /);
  assert.equal(certs[0]?.serial, c.tls?.client?.serial);
  assert.match(certs[0]?.expires ?? '', /^\d\d-[A-Z][a-z]{2}-\d{4}$/);
  const stats = await c.getTlsStats();
  assert.deepEqual({ upgraded: stats.upgraded, tls: stats.tls, authfail: stats.authfail }, { upgraded: 1, tls: 1, authfail: 0 });
});

test('relaxed against a TLS-only server uses TLS; without a certificate it is refused with the authorization failure', async (t) => {
  const dir = await certDir(t);
  const s = await sim(t, { tls: { searchPath: dir, require: true } });
  const relaxed = client(t, s.connectstring, { mode: 'relaxed', searchPath: dir });
  await relaxed.getStatus();
  assert.equal(relaxed.tls?.secured, true);

  const none = await emptyDir(t);
  const clear = client(t, s.connectstring, { mode: 'relaxed', searchPath: none }, false);
  await assert.rejects(clear.getStatus(), (e: unknown) => e instanceof AuthorizationError && /Requires TLS/.test(e.message));
  assert.equal(clear.tls?.secured, false);
  assert.equal(clear.tls?.clearTextReason, 'no client certificate found');
  assert.equal((await relaxed.getTlsStats()).authfail, 1, 'the refused command counts as an authorization failure');
});

test('relaxed against a clear-text server stays in clear text and says why', async (t) => {
  const dir = await certDir(t);
  const s = await sim(t, {});
  const c = client(t, s.connectstring, { mode: 'relaxed', searchPath: dir });
  await c.getStatus();
  assert.equal(c.tls?.secured, false);
  assert.equal(c.tls?.clearTextReason, 'server has no TLS keys');
});

test('every TLS failure has its own reason and message, and the connection is never used in clear text', async (t) => {
  const good = await certDir(t);
  const tlsOnly = await sim(t, { tls: { searchPath: good, require: true } });
  const plain = await sim(t, {});

  const none = await emptyDir(t);
  await refused(t, { mode: 'strict', searchPath: none }, tlsOnly, 'NO_CERTIFICATE', new RegExp(`${PKI_FILES.apiCert} and ${PKI_FILES.apiKey} in ${none}`));
  await refused(t, { mode: 'strict', searchPath: good }, plain, 'SERVER_WITHOUT_TLS', /result: Failed/);

  const otherCa = await certDir(t, { caOrdinal: 'Other' });
  await refused(t, { mode: 'strict', searchPath: otherCa }, tlsOnly, 'CA_MISMATCH', /not signed by the cluster CA/);
  // A CA mismatch is a failed handshake: fatal in relaxed mode too, never a fall-back to clear text (mgmapi).
  await refused(t, { mode: 'relaxed', searchPath: otherCa }, tlsOnly, 'CA_MISMATCH', /not signed by the cluster CA/);
  // We trust the server, but our certificate comes from another CA: the server's refusal arrives after our side
  // of the TLS 1.3 handshake, on the first read, and still reads as what it is.
  const ownPki = { caFile: join(good, PKI_FILES.caCert), certFile: join(otherCa, PKI_FILES.apiCert), keyFile: join(otherCa, PKI_FILES.apiKey) };
  // ndb_mgmd (OpenSSL) sends an "unknown CA" alert, the simulator (Node) just hangs up: either way it is named.
  const foreign = await tlsFailure(client(t, tlsOnly.connectstring, { mode: 'strict', searchPath: none, ...ownPki }, false).getStatus());
  assert.ok(foreign.reason === 'CA_MISMATCH' || foreign.reason === 'HANDSHAKE', foreign.message);
  assert.match(foreign.message, /refused ndbtop's certificate/);

  // ndb_mgmd checks a client certificate's host binding by looking its names up; localhost passes on loopback.
  const boundHere = await certDir(t, { apiHostnames: ['localhost'] });
  const here = await sim(t, { tls: { searchPath: boundHere, require: true } });
  await client(t, here.connectstring, { mode: 'strict', searchPath: boundHere }, false).getStatus();
  // An address rather than a name, so no resolver is asked (a test must not wait on DNS).
  const boundAway = await certDir(t, { apiHostnames: ['192.0.2.1'] });
  const away = await sim(t, { tls: { searchPath: boundAway, require: true } });
  const misplaced = await tlsFailure(client(t, away.connectstring, { mode: 'strict', searchPath: boundAway }, false).getStatus());
  assert.match(misplaced.message, /refused ndbtop's certificate/);

  // A key that belongs to another certificate is a configuration error, named as such.
  const wrongKey = { caFile: join(good, PKI_FILES.caCert), certFile: join(good, PKI_FILES.apiCert), keyFile: join(good, PKI_FILES.dataNodeKey) };
  await refused(t, { mode: 'strict', searchPath: none, ...wrongKey }, tlsOnly, 'BAD_FILE', /cannot use .*ndb-api-cert with .*ndb-data-node-private-key/);

  const expiredClient = await certDir(t, { days: -1, mgmdDays: 90 });
  const server = await sim(t, { tls: { searchPath: expiredClient, require: true } });
  await refused(t, { mode: 'strict', searchPath: expiredClient }, server, 'CERT_EXPIRED', /client certificate .* expired/);

  const expiredServer = await certDir(t, { days: 90, mgmdDays: -1 });
  const stale = await sim(t, { tls: { searchPath: expiredServer, require: true } });
  await refused(t, { mode: 'strict', searchPath: expiredServer }, stale, 'CERT_EXPIRED', /certificate of management server .* has expired/);

  const elsewhere = await certDir(t, { mgmdHostnames: ['mgm.example.org'] });
  const bound = await sim(t, { tls: { searchPath: elsewhere, require: true } });
  await refused(t, { mode: 'strict', searchPath: elsewhere }, bound, 'HOSTNAME_MISMATCH', /bound to mgm\.example\.org, not to 127\.0\.0\.1/);
});

test('a server that does not know start tls (before 8.3): strict refuses it, relaxed goes on in clear text', async (t) => {
  const dir = await certDir(t);
  const server = await ScriptedServer.start(mgmdScript());
  t.after(() => server.close());
  const hosts = [{ host: '127.0.0.1', port: server.port, bindAddress: null }];
  const strict = new MgmClient({ hosts, reconnect: false, tls: { mode: 'strict', searchPath: dir } });
  t.after(() => strict.close());
  const err = await tlsFailure(strict.getStatus());
  assert.equal(err.reason, 'SERVER_TOO_OLD');
  assert.match(err.message, /Unknown command, 'start tls'/);
  const relaxed = new MgmClient({ hosts, reconnect: false, tls: { mode: 'relaxed', searchPath: dir } });
  t.after(() => relaxed.close());
  assert.ok((await relaxed.getStatus()).length > 0);
  assert.equal(relaxed.tls?.clearTextReason, 'server predates TLS (NDB < 8.3)');
  assert.equal(server.requests.filter((r) => r.command === 'start tls').length, 2, 'each session asks once, as its first request');
});

test('the event stream runs over TLS, and after a management server is killed both links fail over and come back with TLS', async (t) => {
  const dir = await certDir(t);
  const s = await sim(t, { mgmNodes: 2, scenario: 'steady', tls: { searchPath: dir, require: true } });
  const tls: MgmTlsOptions = { mode: 'strict', searchPath: dir };
  const c = client(t, s.connectstring, tls);
  const stream = new EventStream({ connectstring: s.connectstring, tls, backoff: { baseMs: 10, capMs: 100 } });
  t.after(() => stream.close());
  const seen: ClusterEvent[] = [];
  stream.events.on('event', (e) => seen.push(e));
  await stream.start();
  assert.equal(stream.tls?.secured, true);
  await waitUntil('statistics over the TLS event stream', () => (seen.some((e) => e.name === 'TransReportCounters') ? true : undefined));

  await c.getStatus();
  const first = c.state.hostIndex;
  const firstMgmd = s.mgmds[first ?? 0]!.nodeId;
  await s.stopMgmd(firstMgmd);
  await waitUntil('the command link on the other management server', async () => {
    await c.getStatus();
    return c.state.hostIndex !== first ? true : undefined;
  });
  assert.equal(c.tls?.secured, true);
  assert.ok(c.state.failovers >= 1);
  const before = seen.length;
  await waitUntil('events again after the failover', () => (stream.state.status === 'connected' && seen.length > before ? true : undefined));
  assert.equal(stream.tls?.secured, true);

  await s.startMgmd(firstMgmd);
  const other = s.mgmds.find((m) => m.nodeId !== firstMgmd)!.nodeId;
  await s.stopMgmd(other);
  await waitUntil('back on the restarted management server', async () => {
    await c.getStatus();
    return c.state.hostIndex === first ? true : undefined;
  });
  assert.equal(c.tls?.secured, true);
  const stats = await c.getTlsStats();
  assert.equal(stats.authfail, 0, 'no command ever went out in clear text');
  assert.ok(stats.upgraded >= 1);
});
