import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { TlsError } from '../errors.js';
import { certInfo, splitPemCertificates, type CertInfo } from './cert-info.js';
import { DEFAULT_TLS_SEARCH_PATH, expandSearchPath, findInSearchPath, PKI_FILES } from './pki-files.js';

/**
 * `relaxed` (NDB's default for clients): TLS when we have a certificate and the server offers it, clear text
 * otherwise; a failed handshake is still fatal. `strict`: never clear text.
 */
export type MgmTlsMode = 'relaxed' | 'strict';

export interface MgmTlsOptions {
  mode: MgmTlsMode;
  /** As NDB's --ndb-tls-search-path; default $HOME/ndb-tls. */
  searchPath?: string;
  /** Explicit files (own PKI) win over the search path. */
  caFile?: string;
  certFile?: string;
  keyFile?: string;
}

export interface ClientCredentials {
  /** Trusted CA certificates (PEM). */
  ca: string[];
  /** Our certificate chain (PEM) and key. */
  cert: string;
  key: string;
  certPath: string;
  keyPath: string;
  /** Where the CA came from: a file, or the chain inside the certificate file. */
  caPath: string;
  client: CertInfo;
}

function read(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new TlsError('BAD_FILE', `cannot read the ${what} ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, { cause: err });
  }
}

function parseCert(pem: string, path: string): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch (err) {
    throw new TlsError('BAD_FILE', `${path} is not a PEM certificate`, { cause: err });
  }
}

/** The directories a search path names, for messages and lookups. */
export function searchDirs(options: MgmTlsOptions): string[] {
  return expandSearchPath(options.searchPath ?? DEFAULT_TLS_SEARCH_PATH);
}

/**
 * Finds the API node's key and certificate and the cluster CA the way NDB clients do, read fresh on every
 * connection so that renewed certificates are picked up. Throws NO_CERTIFICATE naming every directory searched
 * and every file name looked for.
 */
export function loadClientCredentials(options: MgmTlsOptions): ClientCredentials {
  const dirs = searchDirs(options);
  const certPath = options.certFile ?? findInSearchPath(dirs, PKI_FILES.apiCert);
  const keyPath = options.keyFile ?? findInSearchPath(dirs, PKI_FILES.apiKey);
  const caFound = options.caFile ?? findInSearchPath(dirs, PKI_FILES.caCert);
  if (certPath === null || keyPath === null) {
    const missing = [certPath === null ? PKI_FILES.apiCert : null, keyPath === null ? PKI_FILES.apiKey : null].filter((x) => x !== null);
    const where = dirs.length === 0 ? 'an empty search path' : dirs.join(', ');
    throw new TlsError(
      'NO_CERTIFICATE',
      `no TLS client certificate found: looked for ${missing.join(' and ')} in ${where} (--ndb-tls-search-path); ` +
        'create them with ndb_sign_keys or give --tls-cert/--tls-key/--tls-ca',
    );
  }
  const cert = read(certPath, 'certificate file');
  const key = read(keyPath, 'private key file');
  const chain = splitPemCertificates(cert);
  const leafPem = chain[0];
  if (leafPem === undefined) throw new TlsError('BAD_FILE', `${certPath} holds no PEM certificate`);
  const leaf = parseCert(leafPem, certPath);
  const ca = caFound !== null ? splitPemCertificates(read(caFound, 'CA certificate file')) : chain.slice(1);
  if (ca.length === 0) {
    throw new TlsError(
      'NO_CERTIFICATE',
      `no cluster CA certificate found: looked for ${PKI_FILES.caCert} in ${dirs.join(', ') || 'an empty search path'} and for a CA chain in ${certPath}; give --tls-ca`,
    );
  }
  for (const pem of ca) parseCert(pem, caFound ?? certPath);
  return { ca, cert, key, certPath, keyPath, caPath: caFound ?? `${certPath} (chain)`, client: certInfo(leaf) };
}
