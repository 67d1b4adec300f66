import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BackupStatus } from '../../contract/schemas/backups.js';
import { createEngine } from '../../engine/create-engine.js';
import { waitFor } from '../../engine/test/helpers.js';
import { startServeServer } from '../../serve/serve-server.js';
import { runCli } from './run-cli.js';

const TOKEN = 'backup-cli-token';

/** A sample's value in a /metrics text, null when the series is absent. */
function sample(text: string, series: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? null : Number(line.slice(series.length + 1));
}

test('ndbtop backup: start needs --allow-actions and names the directories; status -c reads the running backup from the cluster; --url, /metrics and abort', async () => {
  // Slow enough that a backup outlasts a few CLI runs (about 14 s).
  const engine = await createEngine({ host: 'serve', actionsEnabled: false, pollIntervalMs: 250, memoryRefreshMs: 1000, simulator: { scenario: 'idle', dataNodes: 4, speed: 1, sql: false } });
  const sim = engine.simulator;
  assert.ok(sim);
  const server = await startServeServer({ engine, staticDir: '/nonexistent', port: 0, token: TOKEN });
  const url = `http://127.0.0.1:${server.port}/`;
  const cs = sim.connectstring;
  const [summary] = await engine.handlers.listClusters({});
  const cluster = summary?.name ?? '';
  const metrics = async (): Promise<string> => (await fetch(`${url}metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
  try {
    await waitFor('four data nodes STARTED', async () => (await engine.handlers.getSnapshot({})).nodes.filter((n) => n.type === 'NDB' && n.status === 'STARTED' && n.memory.data).length === 4, 30_000);

    const refused = await runCli(['backup', 'start', '-c', cs]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /refused: starting a backup is an operator action; add --allow-actions/);
    assert.equal(sim.model.backups.busy, false, 'nothing was sent');

    const started = await runCli(['backup', 'start', '-c', cs, '--allow-actions']);
    assert.equal(started.code, 0, started.stderr);
    // The simulator's configuration gives each data node a DataDir of its own (BackupDataDir and FileSystemPath unset).
    const dirs = [2, 3, 4, 5].map((id) => `  /var/lib/mysql-cluster/ndbd${id}/BACKUP/BACKUP-1 on node ${id}\n`).join('');
    assert.equal(started.stdout, `backup 1 started; each data node writes it on its own host:\n${dirs}`);

    const now = await runCli(['backup', 'status', '-c', cs, '--json']);
    assert.equal(now.code, 0, now.stderr);
    const seen = JSON.parse(now.stdout) as BackupStatus;
    assert.equal(seen.running?.backupId, 1);
    assert.deepEqual(seen.running.nodes.map((n) => n.nodeId), [2, 3, 4, 5], 'each data node reports its own progress');
    assert.ok((seen.running.bytesPerSec ?? 0) > 0, 'two reports a second apart give the rate');
    assert.ok((seen.running.etaMs ?? 0) > 0, 'and the ETA from the DataMemory in use');
    assert.deepEqual(seen.last, [], 'the cluster keeps no list of past backups');

    const during = await metrics();
    assert.equal(sample(during, `ndbtop_backup_running{cluster="${cluster}"}`), 1);
    assert.ok((sample(during, `ndbtop_backup_bytes{cluster="${cluster}",node_id="2"}`) ?? 0) > 0);
    assert.ok((sample(during, `ndbtop_backup_eta_seconds{cluster="${cluster}"}`) ?? 0) > 0);

    const text = await runCli(['backup', 'status', '--url', url, '--token', TOKEN]);
    assert.match(text.stdout, /^backup 1 running since \S+Z, coordinated by node 2\n {2}\S+ \S+ of about \S+ \S+ written, \S+ \S+\/s, ends in /);
    assert.match(text.stdout, /^ {2}node 5: \S+ \S+ \(\d+ %\), [\d,]+ records$/m);

    await waitFor('backup 1 over', async () => (await engine.handlers.getBackups({})).last.length === 1, 60_000);
    const served = await runCli(['backup', 'status', '--url', url, '--token', TOKEN, '--json']);
    const past = JSON.parse(served.stdout) as BackupStatus;
    assert.deepEqual(past, await engine.handlers.getBackups({}), 'the JSON is what the serving ndbtop derived');
    assert.equal(past.last[0]?.outcome, 'completed');
    const after = await metrics();
    assert.equal(sample(after, `ndbtop_backup_running{cluster="${cluster}"}`), 0);
    assert.equal(sample(after, `ndbtop_backups_total{cluster="${cluster}",outcome="completed"}`), 1);

    assert.equal((await runCli(['backup', 'start', '-c', cs, '--allow-actions'])).code, 0);
    const abort = await runCli(['backup', 'abort', '2', '-c', cs, '--allow-actions']);
    assert.equal(abort.code, 0, abort.stderr);
    await waitFor('backup 2 aborted', async () => (await engine.handlers.getBackups({})).last.find((b) => b.backupId === 2 && b.outcome === 'aborted'));
    assert.equal((await runCli(['backup', 'status', '-c', cs])).stdout, 'no backup running\n');
  } finally {
    await server.close();
    await engine.close();
  }
});
