import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseSqlUrl } from '../../../../../ndbinfo/client/sql-url.js';
import { startSqlSimulator } from '../../../../../ndbinfo/sim/index.js';
import { spawnSync } from 'node:child_process';
import { createMetricsExporter } from '../../../../serve/metrics/exporter.js';
import { createEngine } from '../../../create-engine.js';
import { createReplayEngine } from '../../../recording/replay.js';
import { PushWatcher, waitFor } from '../../../test/helpers.js';

// Short intervals so every reading arrives within a couple of seconds.
const FAST = { intervals: { logspaces: 300, transporters: 300, transporterDetails: 300, diskWriteSpeed: 300, restarts: 500 }, loadEveryMs: 300, connectTimeoutMs: 2000, queryTimeoutMs: 2000 };

test('the built-in simulator brings its SQL node: ndbinfo figures reach the snapshot with their ages, and turn stale when the SQL node goes', { timeout: 120_000 }, async (t) => {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'steady', dataNodes: 2 }, pollIntervalMs: 200, sqlWatch: FAST });
  t.after(() => engine.close());
  const watcher = new PushWatcher(engine);
  t.after(() => watcher.unsubscribe());
  assert.ok(engine.simulator?.sql, 'the embedded default starts the SQL endpoint');

  const ready = await waitFor('threads, redo, send buffers and links of both data nodes', () => {
    const s = watcher.current;
    const nodes = s?.ndbinfoNodes ?? [];
    const full = nodes.filter((n) => n.threads && n.threads.threads.length > 0 && n.redo && n.sendBuffer && n.diskWrite && !n.stale);
    return full.length === 2 && s?.ndbinfo?.links && s.ndbinfo.selfLoad && s.ndbinfo.source.status === 'up' ? s : null;
  });
  const before = Date.now();
  for (const n of ready.ndbinfoNodes ?? []) {
    const threads = n.threads!;
    // Each figure knows when it was observed.
    for (const at of [threads.at, n.redo!.at, n.sendBuffer!.at, n.diskWrite!.at]) assert.ok(at <= before && before - at < 30_000, `age of a figure of node ${n.nodeId}: ${before - at} ms`);
    const hottest = threads.threads.reduce((a, b) => (b.busy > a.busy ? b : a));
    assert.deepEqual(threads.hottest, { thrNo: hottest.thrNo, name: hottest.name, busy: hottest.busy });
    // The push carries each thread's busy share; its splits are asked for per cell, and add up to it.
    const second = Math.floor(threads.at / 1000) * 1000;
    for (const th of threads.threads) {
      assert.ok(th.busy >= 0 && th.busy <= 100, `busy ${th.busy}`);
      const point = await engine.handlers.getThreadPoint({ nodeId: n.nodeId, thrNo: th.thrNo, fromMs: second, toMs: second + 1000 });
      assert.ok(point, `node ${n.nodeId} thread ${th.thrNo} has its splits at ${second}`);
      assert.ok(Math.abs(point.busy - Math.min(100, point.exec + point.send + point.spin + point.bufferFull)) <= 1, `splits of node ${n.nodeId} thread ${th.thrNo} add up: ${JSON.stringify(point)}`);
    }
    assert.ok(n.redo!.total > 0 && n.redo!.used <= n.redo!.total);
  }
  // The links travel apart from the snapshot; its summary counts them.
  const links = await engine.handlers.getLinks({});
  assert.ok(links?.links.some((l) => l.nodeId !== l.remoteNodeId), 'links between nodes');
  assert.ok(ready.ndbinfo!.links!.count > 0);
  const one = await engine.handlers.getLinks({ nodeIds: [ready.ndbinfoNodes![0]!.nodeId] });
  assert.ok(one && one.links.length > 0 && one.links.every((l) => l.nodeId === ready.ndbinfoNodes![0]!.nodeId), 'nodeIds narrows the answer to those data nodes');
  assert.match(ready.ndbinfo!.source.sqlNode ?? '', /^mysql:\/\/root@127\.0\.0\.1:\d+$/);
  assert.ok(ready.ndbinfo!.selfLoad!.queries > 0 && 'cpu' in ready.ndbinfo!.selfLoad!.readings);
  // An unchanged node's figures are not resent: the delta carries only nodes whose figures changed.
  const deltas = watcher.messages.filter((m) => m.type === 'delta');
  assert.ok(deltas.some((m) => m.type === 'delta' && m.delta.ndbinfoNodes), 'ndbinfo figures travel in deltas');

  // History keeps the hottest thread and redo fill per data node.
  await waitFor('history with ndbinfo figures', async () => {
    const h = await engine.handlers.getHistory({ metrics: ['hottestThread', 'redoFill'], nodeIds: (ready.ndbinfoNodes ?? []).map((n) => n.nodeId) });
    return h.series.every((s) => s.values.some((v) => v !== null));
  });

  await engine.simulator!.sql!.close();
  // The source may say it is down a push before it says why (a clean-clone run under load saw that push).
  const stale = await waitFor('every figure stale, and the source saying why', () => {
    const s = watcher.current;
    return s?.ndbinfo?.source.status !== 'up' && s?.ndbinfo?.source.lastError && (s?.ndbinfoNodes ?? []).every((n) => n.stale) && s?.ndbinfo?.links?.stale ? s : null;
  }).catch((err: unknown) => {
    throw new Error(`${String(err)}; last: ${JSON.stringify({ source: watcher.current?.ndbinfo?.source, stale: watcher.current?.ndbinfoNodes?.map((n) => n.stale) })}`);
  });
  // The last values stay, greyed, with the time they were observed.
  assert.equal(stale.ndbinfoNodes?.length, 2);
  for (const n of stale.ndbinfoNodes ?? []) assert.ok(n.threads && n.threads.at <= Date.now());
});

test('an SQL password reaches neither pushes nor recordings', { timeout: 120_000 }, async (t) => {
  const password = 'Sekrit-pw-3141';
  const sim = await startSqlSimulator({ scenario: 'steady', dataNodes: 2, sql: { port: 0, user: 'ndbtop', password } });
  t.after(() => sim.close());
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-sql-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const recordFile = join(dir, 'rec.jsonl.gz');
  const engine = await createEngine({
    host: 'serve',
    simulator: false,
    clusters: [{ connectstring: sim.connectstring, sql: { addresses: [parseSqlUrl(sim.sql!.url)], password } }],
    pollIntervalMs: 200,
    recordFile,
    sqlWatch: FAST,
  });
  const watcher = new PushWatcher(engine);
  await waitFor('figures from the password-protected SQL node', () => (watcher.current?.ndbinfoNodes ?? []).some((n) => n.threads) && watcher.current?.ndbinfo?.selfLoad);
  await waitFor('links and disk write speed', () => watcher.current?.ndbinfo?.links && (watcher.current.ndbinfoNodes ?? []).every((n) => n.diskWrite));
  const scrape = await createMetricsExporter(engine.handlers).scrape(undefined);
  assert.ok(scrape.ok);
  watcher.unsubscribe();
  await engine.close();
  // What the engine kept last, to hold the replay to.
  const series = await engine.handlers.getThreadSeries({});
  const cell = series.threads[0];
  assert.ok(cell, 'the Threads view has a series');
  const cellSpan = { nodeId: cell.nodeId, thrNo: cell.thrNo, fromMs: series.fromMs, toMs: series.fromMs + series.columns * series.stepMs };
  const point = await engine.handlers.getThreadPoint(cellSpan);
  assert.ok(point, 'a cell has its splits');
  assert.ok(!JSON.stringify(watcher.messages).includes(password), 'no push carries the password');
  assert.ok(!scrape.body.includes(password), '/metrics does not carry the password');
  for (const family of ['ndbtop_ndbinfo_thread_busy_ratio', 'ndbtop_ndbinfo_log_used_bytes', 'ndbtop_ndbinfo_log_total_bytes', 'ndbtop_ndbinfo_transporter_sent_bytes_total', 'ndbtop_ndbinfo_transporter_overloads_total', 'ndbtop_ndbinfo_disk_written_last_second_bytes', 'ndbtop_ndbinfo_query_seconds', 'ndbtop_ndbinfo_self_load_ratio']) {
    assert.match(scrape.body, new RegExp(`^${family}\\{cluster="[^"]+"`, 'm'), `${family} is exported`);
  }
  assert.match(scrape.body, /^ndbtop_ndbinfo_thread_busy_ratio\{cluster="[^"]+",node_id="\d+",thread="\d+",thread_name="[a-z]+"\} (0|1|0\.\d+)$/m);
  // promtool reads and lints the ndbinfo families (prom-client's own process gauges carry lint notes of their own).
  const ours = scrape.body.split('\n').filter((l) => /^(# (HELP|TYPE) )?ndbtop_ndbinfo_/.test(l)).join('\n');
  const check = spawnSync('promtool', ['check', 'metrics'], { input: `${ours}\n`, encoding: 'utf8' });
  assert.equal(check.status, 0, `${check.stdout}${check.stderr}`);
  const text = gunzipSync(await readFile(recordFile)).toString('utf8');
  assert.match(text, /"kind":"ndbinfo"/, 'the samples are recorded as inputs');
  assert.ok(!text.includes(password), 'the recording does not carry the password');

  // The Threads view's per-second series is derived from the recorded readings: a replay rebuilds it.
  const replay = await createReplayEngine({ file: recordFile, speed: Infinity });
  t.after(() => replay.close());
  await replay.finished;
  assert.deepEqual(await replay.handlers.getThreadSeries({}), series, 'the replay derives the same thread series');
  assert.deepEqual(await replay.handlers.getThreadPoint(cellSpan), point);
});
