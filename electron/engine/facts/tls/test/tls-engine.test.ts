import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TlsView } from '../../../../contract/schemas/tls.js';
import { certDir, emptyDir } from '../../../../../native-mgm/test/tls-fixtures.js';
import { createEngine } from '../../../create-engine.js';
import { expiringCerts } from '../cert-expiry.js';
import { PushWatcher, waitFor } from '../../../test/helpers.js';

test('a TLS-only cluster: the engine watches it over TLS, and a management server killed mid-session is recovered with TLS', async (t) => {
  const dir = await certDir(t);
  const engine = await createEngine({
    host: 'serve',
    simulator: { scenario: 'steady', mgmNodes: 2, dataNodes: 2, speed: 5, tls: { searchPath: dir, require: true } },
    clusters: [{ tls: { mode: 'strict', searchPath: dir } }],
    requestTimeoutMs: 1000,
    actionsEnabled: true,
  });
  const watch = new PushWatcher(engine);
  t.after(async () => {
    watch.unsubscribe();
    await engine.close();
  });
  const live = await waitFor('live over TLS with nodes', () => {
    const c = watch.current;
    return c?.connection.status === 'live' && c.connection.tls?.secured && c.nodes.length > 0 && c.connection.eventStream.status === 'live' ? c : null;
  });
  assert.match(live.connection.tls?.server?.subject ?? '', /NDB Management Node/);
  await waitFor('TLS counters and client certificates read', () => (watch.current?.connection.tls?.certs.length ?? 0) >= 1);
  // An operator action gets a session of its own: it must be secured too, or the server would refuse it.
  const dataNode = live.nodes.find((n) => n.type === 'NDB')?.nodeId ?? 0;
  const stopped = await engine.handlers.runAction({ action: { kind: 'stop', nodeId: dataNode, abort: false } });
  assert.equal(stopped.ok, true, stopped.message);

  await engine.simulator?.stopMgmd(live.connection.mgmd?.nodeId ?? 1);
  const after = await waitFor('failed over, still TLS', () => {
    const c = watch.current?.connection;
    return c?.status === 'failed-over' && c.tls?.secured && c.eventStream.status === 'live' ? c : null;
  });
  assert.equal(after.tls?.problem, null);
  await waitFor('stats from the new server, no clear-text refusals', () => {
    const s = watch.current?.connection.tls?.stats;
    return s && s.authfail === 0 && s.tls >= 1 ? true : null;
  });
});

test('the UI is told what is wrong: no certificate for a TLS-only cluster, and a CA mismatch', async (t) => {
  const dir = await certDir(t);
  const none = await emptyDir(t);
  const other = await certDir(t, { caOrdinal: 'Other' });
  const engine = await createEngine({
    host: 'serve',
    simulator: { scenario: 'idle', dataNodes: 2, tls: { searchPath: dir, require: true } },
    clusters: [
      { name: 'no-cert', tls: { mode: 'relaxed', searchPath: none } },
      { name: 'wrong-ca', tls: { mode: 'strict', searchPath: other } },
    ],
    requestTimeoutMs: 1000,
  });
  t.after(() => engine.close());
  const problem = async (clusterId: string, pattern: RegExp, sessionKnown: boolean) =>
    waitFor(`${clusterId}: ${String(pattern)}`, async () => {
      const snap = await engine.handlers.getSnapshot({ clusterId });
      const tls = snap.connection.tls;
      // The event link may be refused before the command link reports its (clear-text) session.
      const settled = !sessionKnown || tls?.clearTextReason !== null;
      return tls && settled && pattern.test(tls.problem ?? '') && pattern.test(snap.connection.lastError ?? '') ? tls : null;
    });
  const [noCert, wrongCa] = (await engine.handlers.listClusters({})).map((c) => c.clusterId);
  const a = await problem(noCert ?? '', /requires TLS/i, true);
  assert.equal(a.secured, false);
  assert.equal(a.clearTextReason, 'no client certificate found');
  const b = await problem(wrongCa ?? '', /not signed by the cluster CA/, false);
  assert.equal(b.secured, false);
});

test('certificate expiry: a warning for each certificate inside the window, none outside it', () => {
  const day = 24 * 3600 * 1000;
  const now = Date.UTC(2026, 0, 1);
  const cert = (days: number, serial: string) => ({ subject: 'CN=x', issuer: 'CN=ca', serial, validFrom: now - day, validTo: now + days * day, hostnames: [] });
  const view: TlsView = {
    mode: 'strict',
    secured: true,
    clearTextReason: null,
    protocol: 'TLSv1.3',
    server: cert(12.5, 'AA'),
    client: cert(45, 'BB'),
    problem: null,
    expiryWarnDays: 30,
    stats: null,
    certs: [],
    statsAt: null,
  };
  const warned = expiringCerts(view, now);
  assert.equal(warned.length, 1);
  assert.match(warned[0]?.message ?? '', /management server expires in 12 days .*serial AA/);
  assert.equal(expiringCerts({ ...view, expiryWarnDays: 60 }, now).length, 2);
  assert.match(expiringCerts({ ...view, server: cert(-2, 'CC') }, now)[0]?.message ?? '', /has expired/);
  assert.deepEqual(expiringCerts(null, now), []);
});
