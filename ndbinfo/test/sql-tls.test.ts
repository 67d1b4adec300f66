import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { NdbinfoError } from '../client/errors.js';
import { readOnce } from '../client/read-once.js';
import { parseSqlUrl } from '../client/sql-url.js';
import { fillNdbinfo, SQL_PASSWORD, SQL_USER } from './fixture-cluster.js';
import { MariaDbServer } from './mariadb-server.js';

function openssl(dir: string, args: string[]): void {
  const out = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`openssl ${args.join(' ')}: ${out.stderr}`);
}

/** A CA (`name`-ca.pem) and, when `server`, a certificate it signed for 127.0.0.1 (server.pem, server-key.pem). */
async function pki(dir: string, name: string, server: boolean): Promise<void> {
  openssl(dir, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${name} CA`, '-keyout', `${name}-ca-key.pem`, '-out', `${name}-ca.pem`]);
  if (!server) return;
  await writeFile(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', 'server-key.pem', '-out', 'server.csr']);
  openssl(dir, ['x509', '-req', '-in', 'server.csr', '-CA', `${name}-ca.pem`, '-CAkey', `${name}-ca-key.pem`, '-CAcreateserial', '-days', '2', '-extfile', 'san.ext', '-out', 'server.pem']);
}

const OPTIONS = { connectTimeoutMs: 10_000, queryTimeoutMs: 10_000 };

/** --sql-ca: the SQL node's certificate is checked against the CA given; one signed by another is refused. */
describe('an SQL node over TLS (a real MariaDB with certificates from openssl)', () => {
  let dir: string;
  let server: MariaDbServer;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ndbtop-sql-tls-'));
    await pki(dir, 'real', true);
    await pki(dir, 'other', false);
    server = await MariaDbServer.create([`--ssl-ca=${join(dir, 'real-ca.pem')}`, `--ssl-cert=${join(dir, 'server.pem')}`, `--ssl-key=${join(dir, 'server-key.pem')}`]);
    fillNdbinfo(server);
  });
  after(async () => {
    await server?.dispose();
    await rm(dir, { recursive: true, force: true });
  });
  const url = () => parseSqlUrl(`mysql://${SQL_USER}@127.0.0.1:${server.port}`);

  it('with the CA that signed its certificate: TLS, and the readings come', async () => {
    const snap = await readOnce([url()], SQL_PASSWORD, { ...OPTIONS, tlsCa: await readFile(join(dir, 'real-ca.pem'), 'utf8') });
    assert.equal(snap.tls, true);
    assert.ok((snap.samples.cpu?.rows.length ?? 0) > 0);
  });

  it('with another CA: refused as a TLS failure, the password never sent', async () => {
    const err = await readOnce([url()], SQL_PASSWORD, { ...OPTIONS, tlsCa: await readFile(join(dir, 'other-ca.pem'), 'utf8') }).then(() => null, (e: unknown) => e);
    assert.ok(err instanceof NdbinfoError, String(err));
    assert.equal(err.code, 'TLS');
    assert.ok(!err.message.includes(SQL_PASSWORD));
  });
});
