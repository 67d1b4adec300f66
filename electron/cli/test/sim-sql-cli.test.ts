import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import mysql from 'mysql2/promise';
import { runCli, simAddresses, spawnCli } from './run-cli.js';

test('sim --sql-port 0 --sql-user --sql-password-file: prints the ndbinfo URL and serves it with that account', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ndbtop-sql-'));
  const passwordFile = join(dir, 'password');
  writeFileSync(passwordFile, 'monitor-pw\n');
  const child = spawnCli(['sim', '--port', '0', '--scenario', 'idle', '--data-nodes', '2', '--sql-port', '0', '--sql-user', 'monitor', '--sql-password-file', passwordFile]);
  t.after(() => child.kill('SIGTERM'));
  const { url } = await simAddresses(child);
  const { hostname, port, username } = new URL(url);
  assert.equal(username, 'monitor');
  const conn = await mysql.createConnection({ host: hostname, port: Number(port), user: 'monitor', password: 'monitor-pw', database: 'ndbinfo' });
  const [rows] = (await conn.query('SELECT COUNT(DISTINCT node_id) AS nodes FROM threads')) as [Array<{ nodes: number }>, unknown];
  assert.equal(rows[0]!.nodes, 2);
  await conn.end();
});

test('sim --list-scenarios lists redo-pressure', async () => {
  const { stdout } = await runCli(['sim', '--list-scenarios']);
  assert.match(stdout, /^redo-pressure\s+bulk ingest/m);
});

test('a rolling restart in the simulator shows in restart_info through ndbtop ndbinfo --json, its phases adding up to the total', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ndbtop-sql-rolling-'));
  const child = spawnCli(['sim', '--port', '0', '--scenario', 'idle', '--data-nodes', '2', '--speed', '20', '--sql-port', '0']);
  t.after(() => child.kill('SIGTERM'));
  const { connectstring, url } = await simAddresses(child);
  const rolled = await runCli(['rolling-restart', '-c', connectstring, '--allow-actions', '--allow-unchecked', '--yes', '--json', '--poll-interval', '100', '--state-file', join(dir, 'state.json')], {}, 90_000);
  assert.equal(rolled.code, 0, rolled.stderr);
  assert.match(rolled.stdout, /"event":"done"/);
  // The simulator's SQL node runs in its own starved process on a loaded machine (one CI run: past 5 s).
  const r = await runCli(['ndbinfo', '--sql', url, '--json', '--timeout', '30000'], {}, 60_000);
  assert.equal(r.code, 0, r.stderr);
  const restarts = (JSON.parse(r.stdout) as { restarts: Array<{ nodeId: number; status: string; phases: Record<string, number>; totalSecs: number }> }).restarts;
  const dataNodes = restarts.filter((x) => x.totalSecs > 0);
  assert.equal(dataNodes.length, 2, `both data nodes restarted: ${JSON.stringify(restarts)}`);
  for (const x of dataNodes) {
    assert.equal(x.status, 'Restart completed', `node ${x.nodeId}`);
    // secs_for_local_recovery spans restore, undo, redo and index rebuild: the others follow one another.
    const sum = Object.entries(x.phases).reduce((a, [column, secs]) => (column === 'secs_for_local_recovery' ? a : a + secs), 0);
    assert.equal(sum, x.totalSecs, `node ${x.nodeId}: phases vs total`);
  }
});
