import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { RESTART_PHASE_COLUMNS } from '../../schema/tables.js';
import { startSqlSimulator } from '../index.js';

const run = promisify(execFile);
const NDB_TOP =
  'SELECT cs.thr_no, ts.thread_name, cs.OS_user, cs.OS_system, cs.OS_idle, cs.thread_exec, cs.thread_send, cs.thread_buffer_full, cs.thread_sleeping, cs.elapsed_time FROM cpustat as cs, threads as ts WHERE cs.node_id=2 AND cs.thr_no=ts.thr_no AND cs.node_id=ts.node_id';

/** Debian's mariadb client, as an operator runs it (no TLS: the endpoint offers none). Async: the server runs in this process. */
async function mariadb(port: number, sql: string, extra: string[] = []): Promise<string[][]> {
  const { stdout } = await run('/usr/bin/mariadb', ['--skip-ssl', '-h', '127.0.0.1', '-P', String(port), '-u', 'root', ...extra, 'ndbinfo', '--batch', '-e', sql], { timeout: 15_000 });
  return stdout.trimEnd().split('\n').map((line) => line.split('\t'));
}

test("Debian's mariadb client runs ndb_top's query and reads restart_info", async () => {
  const sim = await startSqlSimulator({ scenario: 'steady', dataNodes: 2, speed: 10, sql: { port: 0 } });
  try {
    const port = sim.sql!.port;
    const [header, ...threads] = await mariadb(port, NDB_TOP);
    assert.deepEqual(header, ['thr_no', 'thread_name', 'OS_user', 'OS_system', 'OS_idle', 'thread_exec', 'thread_send', 'thread_buffer_full', 'thread_sleeping', 'elapsed_time']);
    assert.deepEqual(threads.map((t) => t[1]), ['main', 'rep', 'ldm', 'ldm', 'ldm', 'ldm', 'tc', 'tc', 'tc', 'tc', 'recv']);
    for (const t of threads) assert.equal(Number(t[2]) + Number(t[3]) + Number(t[4]), 100);

    await sim.model.restartNode(2);
    // The restart goes on after the command was answered; then one snapshot tick (1 s of sim time) for the table.
    while (sim.model.dataNode(2).status !== 'STARTED') await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 150));
    const [cols, row] = await mariadb(port, 'SELECT * FROM ndbinfo.restart_info');
    assert.deepEqual(cols, ['node_id', 'node_restart_status', 'node_restart_status_int', ...RESTART_PHASE_COLUMNS, 'total_restart_secs']);
    assert.equal(row![0], '2');
    assert.equal(row![1], 'Restart completed', 'the text column has the server\'s words, not the enum name');
    const total = Number(row!.at(-1));
    const phases = RESTART_PHASE_COLUMNS.map((c, i) => (c === 'secs_for_local_recovery' ? 0 : Number(row![3 + i])));
    assert.equal(phases.reduce((a, b) => a + b, 0), total);

    // What the client sends on an interactive connect, and the error it prints for a missing table.
    assert.deepEqual(await mariadb(port, 'select @@version_comment limit 1'), [['@@version_comment'], ['MySQL Cluster Community Server - GPL (ndbtop simulator)']]);
    await assert.rejects(mariadb(port, 'SELECT * FROM ndbinfo.nosuch'), (err: { stderr: string }) => {
      assert.match(err.stderr, /ERROR 1146 \(42S02\) at line 1: Table 'ndbinfo.nosuch' doesn't exist/);
      return true;
    });
    await assert.rejects(mariadb(port, 'SELECT 1', ['-pwrong']), (err: { stderr: string }) => {
      assert.match(err.stderr, /ERROR 1045 \(28000\): Access denied for user 'root'@'127.0.0.1' \(using password: YES\)/);
      return true;
    });
  } finally {
    await sim.close();
  }
});
