import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { parseDesktopArgs } from '../../desktop/desktop-args.js';
import { startDesktopEngine } from '../../desktop/desktop-engine.js';
import type { RecordingLine } from '../../engine/recording/recording-format.js';
import { readRecording } from '../../engine/recording/recording-reader.js';
import { runCli, simAddresses, spawnCli } from './run-cli.js';

const PASSWORD = 'Wiring-pw-5150';

/** Resolves with the first match of `re` in the child's stdout (its first group); rejects if the child exits first. */
function printed(child: ChildProcess, re: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = re.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('close', (code) => reject(new Error(`exited ${code} before printing ${re}: ${out}`)));
  });
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

// --sql on every command that connects reaches the engine's ndbinfo source; the password never leaves it.
describe('--sql on record, serve and the desktop app, against the simulator in a process of its own', () => {
  let sim: ChildProcess;
  let dir: string;
  let pwFile: string;
  let connectstring: string;
  let sqlUrl: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ndbtop-sql-wiring-'));
    pwFile = join(dir, 'pw');
    writeFileSync(pwFile, `${PASSWORD}\n`, { mode: 0o600 });
    sim = spawnCli(['sim', '--port', '0', '--scenario', 'steady', '--data-nodes', '2', '--sql-port', '0', '--sql-user', 'monitor', '--sql-password-file', pwFile]);
    ({ connectstring, url: sqlUrl } = await simAddresses(sim));
  });
  after(async () => {
    sim?.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  });

  it('record: the recording holds every data node threads from the SQL node, and not the password', async () => {
    const file = join(dir, 'rec.ndbtop');
    const r = await runCli(['record', '-c', connectstring, '--sql', sqlUrl, '--sql-password-file', pwFile, '--out', file, '--duration', '5s']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!`${r.stdout}${r.stderr}`.includes(PASSWORD));
    const { lines } = await readRecording(file);
    const samples = lines.filter((l): l is Extract<RecordingLine, { kind: 'ndbinfo' }> => l.kind === 'ndbinfo');
    assert.ok(samples.length > 0, 'ndbinfo samples are recorded');
    const nodes = new Set(samples.flatMap((s) => JSON.stringify(s).match(/"nodeId":\d+/g) ?? []));
    assert.ok(nodes.size >= 2, `both data nodes appear in the samples (${[...nodes].join(' ')})`);
    assert.ok(lines.some((l) => l.kind === 'ndbinfo-link' && JSON.stringify(l).includes('"up"')), 'the link came up');
    assert.ok(!gunzipSync(readFileSync(file)).toString('utf8').includes(PASSWORD), 'the password is not in the recording');
  });

  it('serve: /metrics carries the threads of both data nodes; NDBTOP_SQL_PASSWORD works and never shows', async (t) => {
    const serve = spawnCli(['serve', '-c', connectstring, '--sql', sqlUrl, '--port', '0'], { NDBTOP_SQL_PASSWORD: PASSWORD });
    t.after(() => serve.kill('SIGTERM'));
    const url = new URL(await printed(serve, /listening on (http:\/\/\S+)\n/));
    const metrics = await until(
      async () => (await fetch(new URL('/metrics', url.origin))).text(),
      (text) => new Set([...text.matchAll(/^ndbtop_ndbinfo_thread_busy_ratio\{[^}]*node_id="(\d+)"/gm)].map((m) => m[1])).size === 2,
      'thread busy of two data nodes in /metrics',
    );
    assert.ok(!metrics.includes(PASSWORD));
  });

  it('the desktop app: --sql and --sql-password-file reach its engine, whose snapshot shows the SQL node up', async () => {
    const args = parseDesktopArgs(['-c', connectstring, '--sql', sqlUrl, '--sql-password-file', pwFile], {});
    const engine = await startDesktopEngine(args, dir);
    try {
      const [cluster] = await engine.handlers.listClusters({});
      assert.ok(cluster);
      const snapshot = await until(() => engine.handlers.getSnapshot({ clusterId: cluster.clusterId }), (s) => s.ndbinfo?.source.status === 'up' && (s.ndbinfoNodes?.length ?? 0) === 2, 'the SQL node up with two data nodes');
      assert.equal(snapshot.ndbinfo?.source.sqlNode, sqlUrl);
      assert.ok(!JSON.stringify(snapshot).includes(PASSWORD));
      // A connection profile's SQL nodes (the desktop's Add cluster) use the password the app was started with.
      const added = await engine.handlers.addCluster({ name: 'profile', connectstring, sql: [sqlUrl] });
      await until(() => engine.handlers.getSnapshot({ clusterId: added.clusterId }), (s) => s.ndbinfo?.source.status === 'up', "the profile's SQL node up");
      assert.ok(!JSON.stringify(await engine.handlers.listProfiles({})).includes(PASSWORD), 'profiles hold no password');
    } finally {
      await engine.close();
    }
  });
});
