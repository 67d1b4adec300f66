import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EXIT } from '../exit-codes.js';
import { FIXTURE_ROWS, fillNdbinfo, HOSTILE_THREAD_NAME, LEFT_OUT, SQL_PASSWORD, SQL_USER } from '../../../ndbinfo/test/fixture-cluster.js';
import { freePort } from '../../../native-mgm/test/free-port.js';
import { MariaDbServer } from '../../../ndbinfo/test/mariadb-server.js';
import { runCli, type CliResult } from './run-cli.js';

const noPassword = (r: CliResult, password: string): void => {
  assert.ok(!r.stdout.includes(password) && !r.stderr.includes(password), 'the password is never printed');
};

describe('ndbtop ndbinfo against a real MariaDB server', () => {
  let server: MariaDbServer;
  let dir: string;
  let pwFile: string;
  const url = (user = SQL_USER) => `mysql://${user}@127.0.0.1:${server.port}`;
  before(async () => {
    server = await MariaDbServer.create();
    fillNdbinfo(server);
    dir = await mkdtemp(join(tmpdir(), 'ndbtop-ndbinfo-cli-'));
    pwFile = join(dir, 'pw');
    await writeFile(pwFile, `${SQL_PASSWORD}\n`, { mode: 0o600 });
  });
  after(async () => {
    await server?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('--json prints one sample with the values as the server gave them', async () => {
    const r = await runCli(['ndbinfo', '--sql', url(), '--sql-password-file', pwFile, '--json']);
    assert.equal(r.code, EXIT.OK, r.stderr);
    noPassword(r, SQL_PASSWORD);
    const out = JSON.parse(r.stdout);
    assert.equal(out.sqlNode, url());
    assert.deepEqual([...out.missing].sort(), [...LEFT_OUT].sort());
    assert.deepEqual(out.threads[0], { nodeId: 1, thrNo: 0, name: 'main', osUser: 10, osSystem: 11, osIdle: 79, exec: 12, sleep: 80, spin: 3, send: 4, bufferFull: 0 });
    assert.equal(out.threads[3].name, HOSTILE_THREAD_NAME, 'JSON keeps the text exactly (escaped as JSON)');
    assert.ok(r.stdout.includes('"ldm\\u001b[31m\\u202eKO"') && !r.stdout.includes('\u202e'), 'no raw bidi control in the JSON');
    assert.equal(out.restarts[1].status, 'Executing redo log');
    assert.equal(out.restarts[1].phases.secs_exec_redo_log, 213);
    assert.equal(out.redo.length, 3);
    assert.deepEqual(out.redo.find((l: { nodeId: number; logType: string }) => l.nodeId === 1 && l.logType === 'REDO'), { nodeId: 1, logType: 'REDO', logId: 0, logPart: 0, total: 536_870_912, used: 1_048_576 });
    assert.deepEqual(out.transporters[0], { nodeId: 1, remoteNodeId: 2, status: 'CONNECTED', bytesSent: 5_000_000_000, bytesReceived: 4_000_000_123, overloaded: 0, slowdown: 1 });
    assert.deepEqual(out.memory, FIXTURE_ROWS.memoryusage?.map((m) => ({ nodeId: m.node_id, memoryType: m.memory_type, used: m.used, total: m.total })));
  });

  it('prints a table per node, server text escaped; the password may come from NDBTOP_SQL_PASSWORD', async () => {
    const r = await runCli(['ndbinfo', '--sql', url()], { NDBTOP_SQL_PASSWORD: SQL_PASSWORD });
    assert.equal(r.code, EXIT.OK, r.stderr);
    noPassword(r, SQL_PASSWORD);
    assert.match(r.stdout, /^Node 1$/m);
    assert.match(r.stdout, /^Node 2$/m);
    assert.match(r.stdout, /not on this SQL node: ndbinfo\.logbuffers, ndbinfo\.transporter_details/);
    assert.match(r.stdout, /ldm\\x1b\[31m\\u202eKO/);
    assert.ok(!r.stdout.includes('\x1b') && !r.stdout.includes('\u202e'), 'no raw escape or bidi control reaches the terminal');
    assert.match(r.stdout, /restart: Executing redo log \(14\)/);
  });

  it('refuses a password in the URL with a usage error that does not repeat it', async () => {
    const r = await runCli(['ndbinfo', '--sql', `mysql://${SQL_USER}:${SQL_PASSWORD}@127.0.0.1:${server.port}`]);
    assert.equal(r.code, EXIT.USAGE);
    assert.match(r.stderr, /must not contain a password.*--sql-password-file FILE.*NDBTOP_SQL_PASSWORD/);
    noPassword(r, SQL_PASSWORD);
  });

  it('a wrong password is access denied (exit 8), and neither password is printed', async () => {
    const r = await runCli(['ndbinfo', '--sql', url()], { NDBTOP_SQL_PASSWORD: 'Wrong-pw-77x' });
    assert.equal(r.code, EXIT.ACCESS_DENIED);
    assert.match(r.stderr, /access denied/);
    noPassword(r, 'Wrong-pw-77x');
    noPassword(r, SQL_PASSWORD);
  });

  it('a server without an ndbinfo schema has its own message (exit 9)', async () => {
    const r = await runCli(['ndbinfo', '--sql', url('plain'), '--sql-password-file', pwFile]);
    assert.equal(r.code, EXIT.NO_NDBINFO);
    assert.match(r.stderr, /no ndbinfo schema/);
  });

  it('a refused port is unreachable (exit 3); with a second --sql it fails over', async () => {
    const down = `mysql://${SQL_USER}@127.0.0.1:${await freePort()}`;
    const alone = await runCli(['ndbinfo', '--sql', down, '--sql-password-file', pwFile]);
    assert.equal(alone.code, EXIT.UNREACHABLE);
    assert.match(alone.stderr, /connection refused/);
    const r = await runCli(['ndbinfo', '--sql', down, '--sql', url(), '--sql-password-file', pwFile, '--json']);
    assert.equal(r.code, EXIT.OK, r.stderr);
    assert.equal(JSON.parse(r.stdout).sqlNode, url());
  });
});

describe('ndbtop ndbinfo against a server that accepts and never answers', () => {
  let silent: Server;
  const sockets: Socket[] = [];
  before(() => new Promise<void>((resolve) => {
    silent = createServer((s) => sockets.push(s)).listen(0, '127.0.0.1', resolve);
  }));
  after(() => {
    for (const s of sockets) s.destroy();
    silent.close();
  });

  it('times out with its own message (exit 6)', async () => {
    const { port } = silent.address() as { port: number };
    const r = await runCli(['ndbinfo', '--sql', `mysql://u@127.0.0.1:${port}`, '--timeout', '500']);
    assert.equal(r.code, EXIT.TIMEOUT, r.stderr);
    assert.match(r.stderr, /timed out after 500 ms|no answer within 500 ms/);
  });
});
