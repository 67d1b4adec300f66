/**
 * A cluster CA plus keys and certificates for an API node (ndbtop), the management servers and data nodes,
 * under NDB's own file names, for demos and tests. Made by the system's `openssl` binary (Debian's package)
 * rather than by hand-written ASN.1; keys are P-256 like ndb_sign_keys makes them. Unlike ndb_sign_keys the
 * CA key is not protected by a pass phrase: these are throw-away credentials.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PKI_FILES } from './pki-files.js';

const run = promisify(execFile);

export interface MakeCertsOptions {
  /** Lifetime of node certificates in days (ndb_sign_keys: 90); negative gives one that has already expired. */
  days?: number;
  /** Lifetime of the management server certificate, when it should differ from `days`. */
  mgmdDays?: number;
  /** Lifetime of the CA (ndb_sign_keys: 1461). */
  caDays?: number;
  /** Host names and addresses the management server certificate is bound to. */
  mgmdHostnames?: readonly string[];
  /** Host names the API node (ndbtop) certificate is bound to; none by default. */
  apiHostnames?: readonly string[];
  /** CA subject ordinal, as ndb_sign_keys --CA-ordinal ("First"); a second CA makes a mismatching one. */
  caOrdinal?: string;
}

export interface MadeCerts {
  dir: string;
  files: string[];
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

async function openssl(args: string[]): Promise<void> {
  try {
    await run('openssl', args);
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') throw new Error('the openssl command is needed to make certificates (Debian: apt-get install openssl)', { cause: err });
    throw new Error(`openssl ${args[0]} failed: ${e.stderr?.trim() ?? e.message}`, { cause: err });
  }
}

async function newKey(path: string): Promise<void> {
  await openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', path]);
  await chmod(path, 0o600);
}

const altName = (h: string): string => (isIP(h) === 0 ? `DNS:${h}` : `IP:${h}`);

/** Signs a node key with the CA and writes the certificate followed by the CA, as NDB's node certificate files are. */
async function nodeCert(dir: string, kind: 'api' | 'mgmd' | 'data', options: Required<MakeCertsOptions>): Promise<string[]> {
  const [keyFile, certFile, label, bound] =
    kind === 'api'
      ? [PKI_FILES.apiKey, PKI_FILES.apiCert, 'Node', options.apiHostnames]
      : kind === 'mgmd'
        ? [PKI_FILES.mgmdKey, PKI_FILES.mgmdCert, 'Management Node', options.mgmdHostnames]
        : [PKI_FILES.dataNodeKey, PKI_FILES.dataNodeCert, 'Data Node', [] as readonly string[]];
  const now = new Date();
  // ndb_sign_keys names node certificates "NDB <type> <Mon YYYY>" (CertSubject::print_name).
  const cn = `NDB ${label} ${MONTHS[now.getUTCMonth()]} ${now.getUTCFullYear()}`;
  const keyPath = join(dir, keyFile);
  const certPath = join(dir, certFile);
  const csr = join(dir, `.${kind}.csr`);
  const ext = join(dir, `.${kind}.ext`);
  await newKey(keyPath);
  await openssl(['req', '-new', '-key', keyPath, '-subj', `/CN=${cn}`, '-out', csr]);
  const lines = ['basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature', 'extendedKeyUsage=serverAuth,clientAuth'];
  if (bound.length > 0) lines.push(`subjectAltName=${bound.map(altName).join(',')}`);
  await writeFile(ext, `${lines.join('\n')}\n`);
  try {
    await openssl([
      'x509', '-req', '-in', csr,
      '-CA', join(dir, PKI_FILES.caCert), '-CAkey', join(dir, PKI_FILES.caKey),
      '-set_serial', `0x${randomBytes(10).toString('hex')}`,
      '-days', String(kind === 'mgmd' ? options.mgmdDays : options.days), '-sha256', '-extfile', ext, '-out', certPath,
    ]);
  } finally {
    await rm(csr, { force: true });
    await rm(ext, { force: true });
  }
  const chain = (await readFile(certPath, 'utf8')) + (await readFile(join(dir, PKI_FILES.caCert), 'utf8'));
  await writeFile(certPath, chain);
  return [keyFile, certFile];
}

export async function makeCerts(dir: string, opts: MakeCertsOptions = {}): Promise<MadeCerts> {
  const options: Required<MakeCertsOptions> = {
    days: opts.days ?? 90,
    mgmdDays: opts.mgmdDays ?? opts.days ?? 90,
    caDays: opts.caDays ?? 1461,
    mgmdHostnames: opts.mgmdHostnames ?? ['localhost', '127.0.0.1', '::1'],
    apiHostnames: opts.apiHostnames ?? [],
    caOrdinal: opts.caOrdinal ?? 'First',
  };
  await mkdir(dir, { recursive: true });
  // As ndb_sign_keys, never overwrite a key: it may be a real cluster's.
  const existing = Object.values(PKI_FILES).filter((name) => existsSync(join(dir, name)));
  if (existing.length > 0) throw new Error(`${dir} already holds ${existing.join(', ')}; not overwriting`);
  const caKey = join(dir, PKI_FILES.caKey);
  await newKey(caKey);
  await openssl([
    'req', '-new', '-x509', '-key', caKey,
    '-subj', `/CN=MySQL NDB Cluster ${options.caOrdinal} Certificate`,
    '-days', String(options.caDays), '-sha256',
    '-set_serial', `0x${randomBytes(10).toString('hex')}`,
    '-addext', 'basicConstraints=critical,CA:TRUE',
    '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
    '-out', join(dir, PKI_FILES.caCert),
  ]);
  const files: string[] = [PKI_FILES.caKey, PKI_FILES.caCert];
  for (const kind of ['mgmd', 'api', 'data'] as const) files.push(...(await nodeCert(dir, kind, options)));
  return { dir, files };
}
