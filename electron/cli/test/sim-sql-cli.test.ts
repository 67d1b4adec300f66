import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import mysql from 'mysql2/promise';
import { runCli, spawnCli } from './run-cli.js';

test('sim --sql-port 0 --sql-user --sql-password-file: prints the ndbinfo URL and serves it with that account', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ndbtop-sql-'));
  const passwordFile = join(dir, 'password');
  writeFileSync(passwordFile, 'monitor-pw\n');
  const child = spawnCli(['sim', '--port', '0', '--scenario', 'idle', '--data-nodes', '2', '--sql-port', '0', '--sql-user', 'monitor', '--sql-password-file', passwordFile]);
  t.after(() => child.kill('SIGTERM'));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /ndbinfo: (mysql:\/\/\S+)\n/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('close', (code) => reject(new Error(`sim exited ${code}: ${out}`)));
  });
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
