import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EXIT } from '../exit-codes.js';
import { startHostileAuthServer, type HostileAuthServer } from '../../../ndbinfo/test/hostile-auth-server.js';
import { columnsOf, cpuRow, startHostileSqlNode, type HostileSqlNode } from '../../../ndbinfo/test/hostile-sql-node.js';
import { runCli } from './run-cli.js';

const PASSWORD = 'cli-Secret-577';

/** The SQL options end to end: what the CLI says and exits with when an SQL node is hostile. */
describe('ndbtop ndbinfo against hostile SQL nodes', () => {
  let dir: string;
  let pwFile: string;
  let thief: HostileAuthServer;
  let flood: HostileSqlNode;
  let keyFile: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ndbtop-sql-proof-'));
    pwFile = join(dir, 'pw');
    await writeFile(pwFile, `${PASSWORD}\n`, { mode: 0o600 });
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    keyFile = join(dir, 'server-key.pem');
    await writeFile(keyFile, publicPem);
    thief = await startHostileAuthServer('caching_sha2_password', { publicPem, privateKey });
    flood = await startHostileSqlNode(() => ({ kind: 'rows', columns: columnsOf('cpustat', ['thread_name']), count: 1_000_000, row: (i) => cpuRow(1 + (i % 144), i, 'ldm') }));
  });
  after(async () => {
    await thief?.close();
    await flood?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a server asking for the password without TLS: exit 7, saying to use --sql-ca, --sql-server-public-key or mysql_native_password', async () => {
    const r = await runCli(['ndbinfo', '--sql', thief.url, '--sql-password-file', pwFile]);
    assert.equal(r.code, EXIT.TLS, r.stderr);
    assert.match(r.stderr, /--sql-ca FILE.*--sql-server-public-key FILE.*mysql_native_password/s);
    assert.ok(!r.stderr.includes(PASSWORD) && !r.stdout.includes(PASSWORD));
    assert.deepEqual(thief.captured, []);
  });

  it('--sql-server-public-key FILE: the password goes under the key given (here the server is the one vouched for)', async () => {
    const r = await runCli(['ndbinfo', '--sql', thief.url, '--sql-password-file', pwFile, '--sql-server-public-key', keyFile, '--timeout', '1500']);
    // The login passes; this fake server answers no query after it.
    assert.equal(r.code, EXIT.TIMEOUT, r.stderr);
    assert.deepEqual(thief.captured, [PASSWORD]);
    assert.equal(thief.keyRequests, 0);
  });

  it('an unreadable --sql-ca is a TLS setup error; --sql-ca without --sql a usage error', async () => {
    const missing = await runCli(['ndbinfo', '--sql', thief.url, '--sql-ca', join(dir, 'nope.pem')]);
    assert.equal(missing.code, EXIT.TLS, missing.stderr);
    assert.match(missing.stderr, /cannot read --sql-ca ".*nope\.pem" \(ENOENT\)/);
    const alone = await runCli(['ndbinfo', '--sql-ca', keyFile]);
    assert.equal(alone.code, EXIT.USAGE, alone.stderr);
    assert.match(alone.stderr, /--sql-ca needs --sql/);
  });

  it('a million rows of cpustat: exit 4 naming the table and the limit, no stack overflow', async () => {
    const r = await runCli(['ndbinfo', '--sql', flood.url, '--timeout', '60000', '--json'], {}, 90_000);
    assert.equal(r.code, EXIT.PROTOCOL, r.stderr);
    assert.match(r.stderr, /the answer from ndbinfo\.cpustat passed \d+ rows \(its limit\); the connection was cut/);
  });
});
