import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import type { ClusterSnapshot } from '../../../../contract/schemas/snapshot.js';
import { startSqlSimulator, type SqlSimulator } from '../../../../../ndbinfo/sim/index.js';
import { PASSWORD_ENV } from '../../../../../ndbinfo/client/password.js';
import { dispatchRequest } from '../../../../serve/transport/bridge.js';
import { startServeServer, type ServeServer } from '../../../../serve/serve-server.js';
import { createEngine } from '../../../create-engine.js';
import type { EngineHost } from '../../../core/engine-host.js';
import { FileSecretStore } from '../../../core/secrets/file-secret-store.js';
import { aesCipher } from '../../../core/secrets/test/test-cipher.js';

// The password the simulator's SQL node requires, planted so that any place it leaks to can be searched for it.
const PLANTED = 'Planted-sql-pw-60913';
const WRONG = 'Wrong-sql-pw-22817';
const SQL_WATCH = { connectTimeoutMs: 3000, queryTimeoutMs: 3000 };

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const sqlState = (engine: EngineHost, clusterId: string, ok: (s: ClusterSnapshot) => boolean, what: string) =>
  until(() => engine.handlers.getSnapshot({ clusterId }), ok, what);

/** Everything this process writes to its console while the tests run, passed through. */
function captureConsole(): { text: () => string } {
  const seen: string[] = [];
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      seen.push(String(chunk));
      return write(chunk, ...rest);
    }) as typeof stream.write;
  }
  return { text: () => seen.join('') };
}

// The keychain path of a desktop profile, on the real engine and a real SQL connection: the OS keychain itself
// (Electron's safeStorage) cannot run here, so a real AES-GCM cipher under a test key stands in for it.
describe("a desktop profile's SQL password, kept by the secret store, against the simulator's SQL node requiring it", () => {
  let sim: SqlSimulator;
  let sqlUrl: string;
  let dir: string;
  const key = randomBytes(32);
  const files = { settings: '', secrets: '', recording: '' };
  let engine: EngineHost;
  let server: ServeServer;
  const pushes: string[] = [];
  const console = captureConsole();
  const desktopEngine = (extra: { sqlPassword?: string; recordFile?: string } = {}) =>
    createEngine({
      host: 'desktop',
      clusters: [{ name: 'started', connectstring: sim.connectstring }],
      simulator: false,
      settingsFile: files.settings,
      secrets: new FileSecretStore(files.secrets, aesCipher(key)),
      sqlWatch: SQL_WATCH,
      ...extra,
    });

  before(async () => {
    // A password from the environment would win over the stored one: this run must have none.
    delete process.env[PASSWORD_ENV];
    dir = mkdtempSync(join(tmpdir(), 'ndbtop-profile-pw-'));
    files.settings = join(dir, 'settings.json');
    files.secrets = join(dir, 'sql-passwords.json');
    files.recording = join(dir, 'rec.ndbtop');
    sim = await startSqlSimulator({ scenario: 'steady', dataNodes: 2, sql: { port: 0, user: 'monitor', password: PLANTED } });
    sqlUrl = sim.sql?.url ?? '';
    engine = await desktopEngine({ recordFile: files.recording });
    engine.subscribe((m) => pushes.push(JSON.stringify(m)));
    server = await startServeServer({ engine, staticDir: '/nonexistent', port: 0 });
  });
  after(async () => {
    await server?.close();
    await engine?.close();
    await sim?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const profile = (id: string) => ({ id, name: id, connectstring: sim.connectstring, sql: [sqlUrl] });

  it('typed once in the profile, it logs in to the SQL node when the profile is watched; answers say only hasSqlPassword', async () => {
    assert.equal((await engine.handlers.getAppInfo({})).sqlPasswordStore, 'os-keychain');
    const saved = await engine.handlers.saveProfile({ ...profile('good'), sqlPassword: { set: PLANTED } });
    assert.deepEqual(saved.map((p) => [p.id, p.hasSqlPassword]), [['good', true]]);
    assert.ok(!JSON.stringify(saved).includes(PLANTED));
    const added = await engine.handlers.addCluster({ ...profile('good'), profileId: 'good' });
    const snap = await sqlState(engine, added.clusterId, (s) => s.ndbinfo?.source.status === 'up' && (s.ndbinfoNodes?.length ?? 0) === 2, "the profile's SQL node up, both data nodes read");
    assert.equal(snap.ndbinfo?.source.sqlNode, sqlUrl);
  });

  it("a wrong stored password gives the SQL node's access-denied error; a profile without one is refused too", async () => {
    await engine.handlers.saveProfile({ ...profile('wrong'), sqlPassword: { set: WRONG } });
    await engine.handlers.saveProfile(profile('none'));
    for (const id of ['wrong', 'none']) {
      const added = await engine.handlers.addCluster({ ...profile(id), profileId: id });
      const snap = await sqlState(engine, added.clusterId, (s) => s.ndbinfo?.source.status === 'lost' && s.ndbinfo.source.lastError !== null, `profile ${id}: the SQL source lost, with why`);
      assert.match(snap.ndbinfo?.source.lastError ?? '', /access denied/, id);
    }
    assert.deepEqual((await engine.handlers.listProfiles({})).map((p) => [p.id, p.hasSqlPassword]), [['good', true], ['wrong', true], ['none', false]]);
  });

  it('the stored password goes only to the SQL nodes saved with it; clear and delete forget it', async () => {
    await assert.rejects(engine.handlers.addCluster({ ...profile('good'), sql: ['mysql://monitor@127.0.0.1:1'], profileId: 'good' }), /differ from the profile's/);
    await assert.rejects(engine.handlers.addCluster({ ...profile('good'), profileId: 'gone' }), /no profile with id/);
    await assert.rejects(engine.handlers.saveProfile({ ...profile('bare'), sql: [], sqlPassword: { set: PLANTED } }), /needs the SQL nodes/);
    await engine.handlers.saveProfile({ ...profile('temp'), sqlPassword: { set: WRONG } });
    const cleared = await engine.handlers.saveProfile({ ...profile('temp'), sqlPassword: { clear: true } });
    assert.equal(cleared.find((p) => p.id === 'temp')?.hasSqlPassword, false);
    await engine.handlers.saveProfile({ ...profile('temp'), sqlPassword: { set: WRONG } });
    assert.equal((await engine.handlers.saveProfile(profile('temp'))).find((p) => p.id === 'temp')?.hasSqlPassword, true, 'saved again as it was: kept');
    const moved = await engine.handlers.saveProfile({ ...profile('temp'), sql: ['mysql://monitor@127.0.0.1:1'] });
    assert.equal(moved.find((p) => p.id === 'temp')?.hasSqlPassword, false, 'other SQL nodes: forgotten');
    await engine.handlers.saveProfile({ ...profile('temp'), sqlPassword: { set: WRONG } });
    await engine.handlers.deleteProfile({ id: 'temp' });
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(files.secrets, 'utf8')).secrets).sort(), ['sql-password:good', 'sql-password:wrong']);
  });

  it('after a restart the stored password still logs in; one given at start (--sql-password-file, NDBTOP_SQL_PASSWORD) wins over it', async () => {
    const restarted = await desktopEngine();
    try {
      const good = await restarted.handlers.addCluster({ ...profile('good'), profileId: 'good' });
      await sqlState(restarted, good.clusterId, (s) => s.ndbinfo?.source.status === 'up', 'the stored password, read back after a restart, logs in');
    } finally {
      await restarted.close();
    }
    const given = await desktopEngine({ sqlPassword: PLANTED });
    try {
      const wrong = await given.handlers.addCluster({ ...profile('wrong'), profileId: 'wrong' });
      await sqlState(given, wrong.clusterId, (s) => s.ndbinfo?.source.status === 'up', "the start's password, not the stored wrong one");
    } finally {
      await given.close();
    }
  });

  it('serve mode has no keychain: saving a password is refused, saying where it comes from instead', async () => {
    const serve = await createEngine({ host: 'serve', clusters: [{ connectstring: sim.connectstring }], simulator: false });
    try {
      assert.equal((await serve.handlers.getAppInfo({})).sqlPasswordStore, 'none');
      await assert.rejects(serve.handlers.saveProfile({ ...profile('p'), sqlPassword: { set: PLANTED } }), (err: Error) => /NDBTOP_SQL_PASSWORD or --sql-password-file/.test(err.message) && !err.message.includes(PLANTED));
      assert.deepEqual(await serve.handlers.listProfiles({}), [], 'nothing saved');
      // What a transport answers for it, and for malformed password fields: the password is in no error.
      for (const sqlPassword of [{ set: PLANTED }, { set: PLANTED, clear: true }, PLANTED, { set: PLANTED.repeat(100) }]) {
        const answer = await dispatchRequest(serve.handlers, 'saveProfile', { ...profile('p'), sqlPassword });
        assert.equal(answer.ok, false);
        assert.ok(!JSON.stringify(answer).includes(PLANTED), JSON.stringify(answer));
      }
    } finally {
      await serve.close();
    }
  });

  it('the password is nowhere: answers, pushes, logs, errors, /api/export, /metrics, settings.json, the secrets file, the recording', async () => {
    const base = `http://127.0.0.1:${server.port}`;
    const clusters = await engine.handlers.listClusters({});
    const places: Record<string, string> = {
      answers: JSON.stringify([clusters, await engine.handlers.listProfiles({}), await Promise.all(clusters.map((c) => engine.handlers.getSnapshot({ clusterId: c.clusterId })))]),
      metrics: await (await fetch(`${base}/metrics`)).text(),
      settings: readFileSync(files.settings, 'utf8'),
      secrets: readFileSync(files.secrets, 'utf8'),
    };
    for (const c of clusters) {
      for (const format of ['json', 'csv']) {
        const res = await fetch(`${base}/api/export?format=${format}&clusterId=${c.clusterId}`);
        assert.equal(res.status, 200);
        places[`export ${format} ${c.name}`] = await res.text();
      }
    }
    assert.match(places.metrics ?? '', /ndbtop_ndbinfo_thread_busy_ratio\{/, "/metrics has the profile's ndbinfo figures");
    await server.close();
    await engine.close();
    places.pushes = pushes.join('\n');
    places.console = console.text();
    places.recording = gunzipSync(readFileSync(files.recording)).toString('utf8');
    assert.match(places.recording, /"kind":"ndbinfo"/, 'the recording holds ndbinfo samples of the profile');
    assert.match(places.pushes, /access denied/, 'pushes carried the errors searched');
    const encoded = [PLANTED, WRONG].flatMap((p) => [p, Buffer.from(p).toString('base64'), Buffer.from(p).toString('hex')]);
    for (const [where, text] of Object.entries(places)) for (const p of encoded) assert.ok(!text.includes(p), `${p} in ${where}`);
  });
});
