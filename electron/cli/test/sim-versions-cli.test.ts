import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXIT } from '../exit-codes.js';
import { runCli, simAddresses, spawnCli } from './run-cli.js';

// `ndbtop sim --version` for each family the references describe: the management server's version strings, the
// commands that differ (no `set clientversion` before 8.0.20, so no is_single_user) and the SQL node's tables and rows.
const FAMILIES = [
  { flag: '7.6.x', mgmd: 'mysql-5.7.36 ndb-7.6.36', sql: '5.7.36-ndb-7.6.36', lacks: ['host CPU: needs ndbinfo.cpudata', 'send buffers: needs ndbinfo.transporter_details'], indexMemory: true },
  { flag: '8.0.x', mgmd: 'mysql-8.0.40 ndb-8.0.40', sql: '8.0.40-cluster', lacks: ['send buffers: needs ndbinfo.transporter_details'], indexMemory: false },
  { flag: '8.4.x', mgmd: 'mysql-8.4.3 ndb-8.4.3', sql: '8.4.3-cluster', lacks: [], indexMemory: false },
  { flag: '9.x', mgmd: 'mysql-9.1.0 ndb-9.1.0', sql: '9.1.0-cluster', lacks: [], indexMemory: false },
] as const;

for (const f of FAMILIES) {
  test(`sim --version ${f.flag}: show and ndbinfo read it without an error, and say what the release lacks`, { timeout: 120_000 }, async (t) => {
    const sim = spawnCli(['sim', '--port', '0', '--sql-port', '0', '--data-nodes', '2', '--version', f.flag]);
    t.after(() => sim.kill());
    const { connectstring, url } = await simAddresses(sim);
    const show = await runCli(['show', '-c', connectstring]);
    assert.equal(show.code, EXIT.OK, show.stderr);
    assert.equal(show.stdout.split(`(${f.mgmd}`).length - 1 >= 3, true, show.stdout);
    const info = await runCli(['ndbinfo', '--sql', url]);
    assert.equal(info.code, EXIT.OK, info.stderr);
    assert.match(info.stdout, new RegExp(`^SQL node mysql://root@127\\.0\\.0\\.1:\\d+ \\(${f.sql.replace(/\./g, '\\.')}\\)`));
    const said = info.stdout.split('\n').filter((l) => /^ {2}\S.*: needs ndbinfo\./.test(l)).map((l) => l.trim().replace(/ \(.*$/, ''));
    assert.deepEqual(said, [...f.lacks]);
    // memoryusage has "Index memory" rows before 8.0 only (the ndbinfo reference).
    assert.equal(/^Index memory /m.test(info.stdout), f.indexMemory, info.stdout);
  });
}

test('sim --version refuses what is neither a release nor a family', { timeout: 60_000 }, async () => {
  const r = await runCli(['sim', '--port', '0', '--version', '8.x']);
  assert.equal(r.code, EXIT.USAGE);
  assert.match(r.stderr, /not a release: give major\.minor\.build \(8\.0\.22\) or a family, 7\.6\.x, 8\.0\.x, 8\.4\.x, 9\.x/);
});
