import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseSqlUrl } from '../../../../../ndbinfo/client/sql-url.js';
import { startSqlSimulator } from '../../../../../ndbinfo/sim/index.js';
import { columnsOf, cpuRow, startHostileSqlNode, type Reply } from '../../../../../ndbinfo/test/hostile-sql-node.js';
import { createMetricsExporter } from '../../../../serve/metrics/exporter.js';
import { startServeServer } from '../../../../serve/serve-server.js';
import { createEngine } from '../../../create-engine.js';
import { PushWatcher, waitFor } from '../../../test/helpers.js';

const PASSWORD = 'Echoed-pw-2718';
const TOKEN = 'serve-token-1618';

test('a hostile SQL node: secrets it echoes are never shown, exported or recorded; readings that fail make the source "failing"', { timeout: 120_000 }, async (t) => {
  const sim = await startSqlSimulator({ scenario: 'steady', dataNodes: 2 });
  t.after(() => sim.close());
  // Thread names that are the password and the token, as a server that read them would send them back.
  const names = [PASSWORD, `x-${TOKEN}-y`, 'ldm'];
  let reply: Reply = { kind: 'rows', columns: columnsOf('cpustat', ['thread_name']), count: 6, row: (i) => cpuRow(1 + (i % 2), i, names[i % 3] ?? 'ldm') };
  const node = await startHostileSqlNode(() => reply);
  t.after(() => node.close());
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-hostile-sql-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const recordFile = join(dir, 'rec.jsonl.gz');
  const engine = await createEngine({
    host: 'serve',
    simulator: false,
    clusters: [{ connectstring: sim.connectstring, sql: { addresses: [parseSqlUrl(node.url)], password: PASSWORD, secrets: [TOKEN] } }],
    pollIntervalMs: 200,
    recordFile,
    sqlWatch: { intervals: { cpu: 300 }, loadEveryMs: 300, connectTimeoutMs: 2000, queryTimeoutMs: 5000 },
  });
  t.after(() => engine.close());
  const watcher = new PushWatcher(engine);
  t.after(() => watcher.unsubscribe());
  const metrics = createMetricsExporter(engine.handlers);

  const read = await waitFor('thread names from the hostile SQL node', () => {
    const threads = (watcher.current?.ndbinfoNodes ?? []).flatMap((n) => n.threads?.threads ?? []);
    return threads.length === 6 ? threads : null;
  });
  assert.deepEqual([...new Set(read.map((th) => th.name))].sort(), ['***', 'ldm', 'x-***-y']);
  const up = await metrics.scrape(undefined);
  assert.ok(up.ok);
  assert.match(up.body, /^ndbtop_ndbinfo_source_state\{cluster="[^"]+",state="up"\} 1$/m);

  reply = { ...reply, row: (i) => cpuRow(i === 3 ? 'x1y' : 1, i, 'ldm') };
  const failing = await waitFor('the source failing, saying why', () => {
    const source = watcher.current?.ndbinfo?.source;
    return source?.status === 'failing' ? source : null;
  });
  assert.match(failing.lastError ?? '', /ndbinfo\.cpustat\.node_id: expected an unsigned number, got "x1y"/);
  const down = await metrics.scrape(undefined);
  assert.ok(down.ok);
  assert.match(down.body, /^ndbtop_ndbinfo_source_up\{cluster="[^"]+"\} 0$/m);
  assert.match(down.body, /^ndbtop_ndbinfo_source_state\{cluster="[^"]+",state="failing"\} 1$/m);
  // No node "7283" made of the bad value.
  assert.ok(!(watcher.current?.ndbinfoNodes ?? []).some((n) => n.nodeId === 7283));

  watcher.unsubscribe();
  await engine.close();
  const pushes = JSON.stringify(watcher.messages);
  const recording = gunzipSync(await readFile(recordFile)).toString('utf8');
  for (const secret of [PASSWORD, TOKEN]) {
    assert.ok(!pushes.includes(secret), `no push carries ${secret}`);
    assert.ok(!up.body.includes(secret) && !down.body.includes(secret), `/metrics does not carry ${secret}`);
    assert.ok(!recording.includes(secret), `the recording does not carry ${secret}`);
  }
  assert.match(recording, /x-\*\*\*-y/, 'the scrubbed names are what was recorded');
});

test("a hostile SQL node: bidi controls in what it sends reach serve's snapshot and /metrics shown, never raw", { timeout: 120_000 }, async (t) => {
  const sim = await startSqlSimulator({ scenario: 'steady', dataNodes: 2 });
  t.after(() => sim.close());
  // "KO 3 edon" under a right-to-left override reads "node 3 OK"; an isolate and a mark follow.
  const name = '\u202eKO 3 edon\u202c\u2067x\u2069\u200f';
  const node = await startHostileSqlNode(() => ({ kind: 'rows', columns: columnsOf('cpustat', ['thread_name']), count: 2, row: (i) => cpuRow(1 + i, 0, name) }));
  t.after(() => node.close());
  const engine = await createEngine({
    host: 'serve',
    simulator: false,
    clusters: [{ connectstring: sim.connectstring, sql: { addresses: [parseSqlUrl(node.url)], password: '' } }],
    pollIntervalMs: 200,
    sqlWatch: { intervals: { cpu: 300 }, loadEveryMs: 300, connectTimeoutMs: 2000, queryTimeoutMs: 5000 },
  });
  t.after(() => engine.close());
  const server = await startServeServer({ engine, staticDir: '/nonexistent', port: 0, readyWithinMs: 0 });
  t.after(() => server.close());
  await waitFor('the thread names in the snapshot', async () => ((await engine.handlers.getSnapshot({})).ndbinfoNodes ?? []).some((n) => n.threads?.threads.some((th) => th.name === name)));

  const bidi = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
  const snapshot = await (await fetch(new URL('/api/snapshot', server.url))).text();
  assert.ok(!bidi.test(snapshot), 'no raw bidi control in /api/snapshot');
  assert.ok(snapshot.includes('"\\u202eKO 3 edon\\u202c\\u2067x\\u2069\\u200f"'), 'escaped as JSON');
  const parsed = JSON.parse(snapshot) as { ndbinfoNodes: Array<{ threads?: { threads: Array<{ name: string | null }> } }> };
  assert.ok(parsed.ndbinfoNodes.some((n) => n.threads?.threads.some((th) => th.name === name)), 'a JSON reader gets the exact name');
  const metrics = await (await fetch(new URL('/metrics', server.url))).text();
  assert.ok(!bidi.test(metrics), 'no raw bidi control in /metrics');
  assert.match(metrics, /thread_name="\\\\u202eKO 3 edon\\\\u202c\\\\u2067x\\\\u2069\\\\u200f"/);
});
