import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { get } from 'node:https';
import { join } from 'node:path';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../../native-mgm/sim/index.js';
import { mgmdScript, ScriptedServer } from '../../../native-mgm/client/test/scripted-server.js';
import { certDir, emptyDir } from '../../../native-mgm/test/tls-fixtures.js';
import { waitUntil } from '../../../native-mgm/test/wait.js';
import { PKI_FILES } from '../../../native-mgm/tls/pki-files.js';
import { EXIT } from '../exit-codes.js';
import { runCli, spawnCli } from './run-cli.js';

async function sim(t: TestContext, options: SimulatorOptions): Promise<Simulator> {
  const s = await startSimulator({ dataNodes: 2, replicas: 2, apiNodes: 2, scenario: 'idle', ...options });
  t.after(() => s.close());
  return s;
}

const show = (cs: string, ...tls: string[]) => runCli(['show', '-c', cs, '--timeout', '20000', ...tls]);

test('show against a TLS-only cluster: strict and relaxed secure the session and say so; clear text is refused with exit 7', async (t) => {
  const dir = await certDir(t);
  const s = await sim(t, { tls: { searchPath: dir, require: true } });
  const strict = await show(s.connectstring, '--ndb-mgm-tls', 'strict', '--ndb-tls-search-path', dir);
  assert.equal(strict.code, EXIT.OK, strict.stderr);
  assert.match(strict.stdout, /Session: TLSv1\.3, server certificate CN=NDB Management Node/);
  const json = await runCli(['show', '-c', s.connectstring, '--json', '--ndb-tls-search-path', dir]);
  assert.equal(json.code, EXIT.OK, json.stderr);
  const out = JSON.parse(json.stdout) as { mgmd: { tls: { secured: boolean; server: { issuer: string } } } };
  assert.equal(out.mgmd.tls.secured, true, 'relaxed is the default and uses TLS when a certificate is found');
  assert.match(out.mgmd.tls.server.issuer, /MySQL NDB Cluster First Certificate/);

  const config = await runCli(['config', '-c', s.connectstring, '--json', '--ndb-mgm-tls', 'strict', '--ndb-tls-search-path', dir]);
  assert.equal(config.code, EXIT.OK, config.stderr);
  assert.ok((JSON.parse(config.stdout) as { nodes: unknown[] }).nodes.length > 0, 'get config_v2 over TLS');

  const none = await emptyDir(t);
  const refusedConfig = await runCli(['config', '-c', s.connectstring, '--ndb-tls-search-path', none]);
  assert.equal(refusedConfig.code, EXIT.TLS, refusedConfig.stderr);
  const clear = await show(s.connectstring, '--ndb-tls-search-path', none);
  assert.equal(clear.code, EXIT.TLS);
  assert.match(clear.stderr, /Requires TLS/);
});

test('show against a clear-text cluster: relaxed works in clear text, strict refuses (result: Failed) with exit 7', async (t) => {
  const dir = await certDir(t);
  const s = await sim(t, {});
  const relaxed = await show(s.connectstring, '--ndb-tls-search-path', dir);
  assert.equal(relaxed.code, EXIT.OK, relaxed.stderr);
  assert.match(relaxed.stdout, /Session: clear text \(server has no TLS keys\)/);
  const strict = await show(s.connectstring, '--ndb-mgm-tls', 'strict', '--ndb-tls-search-path', dir);
  assert.equal(strict.code, EXIT.TLS);
  assert.match(strict.stderr, /has no TLS keys \(start tls: result: Failed\); --ndb-mgm-tls=strict forbids clear text/);
});

test('each TLS failure: its own message on stderr and exit code 7, never a retry loop', async (t) => {
  const good = await certDir(t);
  const s = await sim(t, { tls: { searchPath: good, require: true } });
  const none = await emptyDir(t);
  const cases: Array<[string, string[], RegExp]> = [
    ['no certificate', ['--ndb-mgm-tls', 'strict', '--ndb-tls-search-path', none], new RegExp(`looked for ${PKI_FILES.apiCert} and ${PKI_FILES.apiKey} in ${none}`)],
    ['CA mismatch', ['--ndb-mgm-tls', 'strict', '--ndb-tls-search-path', await certDir(t, { caOrdinal: 'Other' })], /not signed by the cluster CA/],
    ['expired client certificate', ['--ndb-mgm-tls', 'strict', '--ndb-tls-search-path', none, '--tls-ca', join(good, PKI_FILES.caCert), ...(await expiredClient(t))], /client certificate .* expired on/],
  ];
  for (const [what, args, text] of cases) {
    const r = await show(s.connectstring, ...args);
    assert.equal(r.code, EXIT.TLS, `${what}: ${r.stderr}`);
    assert.match(r.stderr, text, what);
  }

  const staleDir = await certDir(t, { mgmdDays: -1 });
  const stale = await sim(t, { tls: { searchPath: staleDir, require: true } });
  const expired = await show(stale.connectstring, '--ndb-mgm-tls', 'strict', '--ndb-tls-search-path', staleDir);
  assert.equal(expired.code, EXIT.TLS);
  assert.match(expired.stderr, /certificate of management server .* has expired/);

  const boundDir = await certDir(t, { mgmdHostnames: ['mgm.example.org'] });
  const bound = await sim(t, { tls: { searchPath: boundDir, require: true } });
  const mismatch = await show(bound.connectstring, '--ndb-mgm-tls', 'strict', '--ndb-tls-search-path', boundDir);
  assert.equal(mismatch.code, EXIT.TLS);
  assert.match(mismatch.stderr, /bound to mgm\.example\.org, not to 127\.0\.0\.1/);

  const old = await ScriptedServer.start(mgmdScript());
  t.after(() => old.close());
  const tooOld = await show(`127.0.0.1:${old.port}`, '--ndb-mgm-tls', 'strict', '--ndb-tls-search-path', good);
  assert.equal(tooOld.code, EXIT.TLS);
  assert.match(tooOld.stderr, /does not know TLS \(start tls: Unknown command, 'start tls'; NDB before 8\.3\)/);
});

/** An API key and certificate from the right CA that expired yesterday: --tls-cert/--tls-key. */
async function expiredClient(t: TestContext): Promise<string[]> {
  const dir = await certDir(t, { days: -1 });
  return ['--tls-cert', join(dir, PKI_FILES.apiCert), '--tls-key', join(dir, PKI_FILES.apiKey)];
}

test('sim --make-certs writes NDB-named files and never overwrites; sim --tls-search-path --require-tls serves events over TLS', async (t) => {
  const dir = join(await emptyDir(t), 'pki');
  const made = await runCli(['sim', '--make-certs', dir]);
  assert.equal(made.code, EXIT.OK, made.stderr);
  for (const name of Object.values(PKI_FILES)) assert.ok(existsSync(join(dir, name)), name);
  const again = await runCli(['sim', '--make-certs', dir]);
  assert.notEqual(again.code, EXIT.OK);
  assert.match(again.stderr, /already holds .*not overwriting/);

  const child = spawnCli(['sim', '--port', '0', '--scenario', 'steady', '--speed', '20', '--tls-search-path', dir, '--require-tls']);
  t.after(() => child.kill('SIGKILL'));
  const cs = await new Promise<string>((resolve) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /connectstring: (\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
  });
  const events = spawnCli(['events', '-c', cs, '--json', '--ndb-mgm-tls', 'strict', '--ndb-tls-search-path', dir]);
  t.after(() => events.kill('SIGKILL'));
  let err = '';
  events.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  await new Promise<void>((resolve) => events.stdout?.on('data', (d: Buffer) => /"name":"TransReportCounters"/.test(d.toString()) && resolve()));
  assert.match(err, /listening to 127\.0\.0\.1:\d+ \(TLSv1\.3\)/);
  events.kill('SIGINT');
  await once(events, 'close');
});

test('serve: HTTPS with --tls-cert/--tls-key while watching a TLS-only cluster with --mgm-tls-*; half an HTTPS pair is a usage error', async (t) => {
  const dir = await certDir(t);
  const s = await sim(t, { scenario: 'steady', tls: { searchPath: dir, require: true } });
  const half = await runCli(['serve', '--port', '0', '--tls-cert', join(dir, PKI_FILES.mgmdCert)]);
  assert.equal(half.code, EXIT.USAGE);
  assert.match(half.stderr, /--tls-cert and --tls-key go together/);

  const none = await emptyDir(t);
  const child = spawnCli([
    'serve', '-c', s.connectstring, '--port', '0',
    '--tls-cert', join(dir, PKI_FILES.mgmdCert), '--tls-key', join(dir, PKI_FILES.mgmdKey),
    '--ndb-mgm-tls', 'strict', '--ndb-tls-search-path', none,
    '--mgm-tls-ca', join(dir, PKI_FILES.caCert), '--mgm-tls-cert', join(dir, PKI_FILES.apiCert), '--mgm-tls-key', join(dir, PKI_FILES.apiKey),
  ]);
  t.after(() => child.kill('SIGKILL'));
  const url = await new Promise<string>((resolve) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (https:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
  });
  const ca = await readFile(join(dir, PKI_FILES.caCert), 'utf8');
  const secured = await waitUntil('the served snapshot shows a TLS session', async () => {
    const body = await new Promise<string>((resolve, reject) => {
      get(new URL('/api/snapshot', url), { ca }, (res) => {
        let b = '';
        res.on('data', (c: Buffer) => (b += c.toString()));
        res.on('end', () => resolve(b));
      }).on('error', reject);
    });
    const snap = JSON.parse(body) as { connection: { tls?: { secured: boolean; mode: string } }; nodes: unknown[] };
    return snap.connection.tls?.secured && snap.nodes.length > 0 ? snap.connection.tls : undefined;
  });
  assert.equal(secured.mode, 'strict');
  child.kill('SIGINT');
  await once(child, 'close');
});
