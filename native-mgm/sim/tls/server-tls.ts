import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { createSecureContext, TLSSocket, type SecureContext } from 'node:tls';
import { lookup } from 'node:dns/promises';
import { certInfo, splitPemCertificates } from '../../tls/cert-info.js';
import { expandSearchPath, findInSearchPath, PKI_FILES } from '../../tls/pki-files.js';

/** A simulated management server's TLS set-up: its keys from a search path, and whether clear text is refused. */
export interface SimTlsOptions {
  /** Where the management server's key, certificate and the cluster CA are looked for (NDB file names). */
  searchPath: string;
  /** Every command but the bootstrap ones is refused on a clear-text session (spec §9). */
  require?: boolean;
}

export interface ServerTls {
  context: SecureContext;
  certPath: string;
  /** The CAs a client certificate must be issued by. */
  trusted: X509Certificate[];
}

/**
 * The server's keys as ndb_mgmd finds them: ndb-mgm-server-private-key and ndb-mgm-server-cert (which carries
 * the CA chain), and NDB-Cluster-cert as the CA clients must be signed by. Null when the keys are missing:
 * such a server answers `start tls` with `Failed`.
 */
export function loadServerTls(searchPath: string): ServerTls | null {
  const dirs = expandSearchPath(searchPath);
  const certPath = findInSearchPath(dirs, PKI_FILES.mgmdCert);
  const keyPath = findInSearchPath(dirs, PKI_FILES.mgmdKey);
  if (certPath === null || keyPath === null) return null;
  const cert = readFileSync(certPath, 'utf8');
  const caPath = findInSearchPath(dirs, PKI_FILES.caCert);
  const ca = caPath !== null ? splitPemCertificates(readFileSync(caPath, 'utf8')) : splitPemCertificates(cert).slice(1);
  const context = createSecureContext({ cert, key: readFileSync(keyPath, 'utf8'), ca, minVersion: 'TLSv1.2' });
  return { context, certPath, trusted: ca.map((pem) => new X509Certificate(pem)) };
}

/** NDB accepts only its own node names as a certificate's CN ("NDB Node …", "NDB Data Node …", …). */
const NDB_COMMON_NAME = /(?:^|\n)CN=NDB (?:Data Node|Management Node|Node)(?: |\n|$)/;

function clientCertProblem(peer: X509Certificate, trusted: readonly X509Certificate[], now = Date.now()): string | null {
  if (!trusted.some((ca) => peer.checkIssued(ca) && peer.verify(ca.publicKey))) return 'not issued by the cluster CA';
  if (now > Date.parse(peer.validTo)) return 'expired';
  if (now < Date.parse(peer.validFrom)) return 'not yet valid';
  if (!NDB_COMMON_NAME.test(peer.subject)) return 'not an NDB node certificate (common name)';
  return null;
}

const plainAddress = (a: string): string => a.replace(/^::ffff:/, '');

/**
 * A client certificate bound to host names must come from one of them, as ndb_mgmd checks it: each name is
 * looked up and one of its addresses must be the peer's; `localhost` alone passes from a loopback address.
 */
async function clientHostProblem(peer: X509Certificate, remote: string | undefined): Promise<string | null> {
  const names = certInfo(peer).hostnames;
  if (names.length === 0) return null;
  const from = plainAddress(remote ?? '');
  if (names.length === 1 && names[0] === 'localhost' && (from.startsWith('127.') || from === '::1')) return null;
  for (const name of names) {
    const addresses = await lookup(name, { all: true }).catch(() => []);
    if (addresses.some((a) => plainAddress(a.address) === from)) return null;
  }
  return `bound to ${names.join(', ')}, not to ${from}`;
}

/**
 * Becomes the TLS server on an accepted socket right after the `start tls` reply, demanding a client
 * certificate signed by the cluster CA (spec §9). Resolves with the secured socket and the client's
 * certificate, rejects when the handshake fails (the caller closes the connection).
 */
export function acceptTls(raw: Socket, tls: ServerTls): Promise<{ socket: TLSSocket; peer: X509Certificate | null }> {
  return new Promise((resolve, reject) => {
    const socket = new TLSSocket(raw, { isServer: true, secureContext: tls.context, requestCert: true, rejectUnauthorized: true });
    const onError = (err: Error): void => {
      socket.off('secure', onSecure);
      socket.destroy();
      reject(err);
    };
    // A bare TLSSocket leaves verifying the client to its owner (Node's TLS server would do it in JavaScript
    // too, so neither sends OpenSSL's alert as ndb_mgmd does): a certificate that is not from the cluster CA,
    // or outside its validity, ends the connection right here.
    const onSecure = (): void => {
      socket.off('error', onError);
      const peer = socket.getPeerX509Certificate() ?? null;
      const refusal = peer === null ? 'no client certificate' : clientCertProblem(peer, tls.trusted);
      if (refusal !== null || peer === null) return onError(new Error(`client certificate refused: ${refusal}`));
      void clientHostProblem(peer, raw.remoteAddress).then((problem) => {
        if (problem !== null) onError(new Error(`client certificate refused: ${problem}`));
        else resolve({ socket, peer });
      });
    };
    socket.once('secure', onSecure);
    socket.once('error', onError);
  });
}
