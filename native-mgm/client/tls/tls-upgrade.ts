import type { Socket } from 'node:net';
import { isIP } from 'node:net';
import { checkServerIdentity, connect as tlsConnect, type PeerCertificate, type TLSSocket } from 'node:tls';
import { formatHostPort, MgmError, TlsError } from '../../errors.js';
import { certInfo, checkValidity, type CertInfo } from '../../tls/cert-info.js';
import { loadClientCredentials, type ClientCredentials, type MgmTlsOptions } from '../../tls/credentials.js';
import { askStartTls } from './start-tls-reply.js';
import { classifyTlsFailure } from './tls-failure.js';

/** How the latest session is secured, for the operator's view. */
export interface TlsSessionInfo {
  secured: boolean;
  /** Why a relaxed session runs in clear text; null when secured. */
  clearTextReason: string | null;
  protocol: string | null;
  cipher: string | null;
  server: CertInfo | null;
  client: CertInfo | null;
}

const clear = (reason: string, client: CertInfo | null = null): TlsSessionInfo => ({
  secured: false,
  clearTextReason: reason,
  protocol: null,
  cipher: null,
  server: null,
  client,
});

/**
 * Binds the server's certificate to the host we dialed only where the certificate names hosts (NDB binds
 * management server certificates to host names by default, but an unbound certificate is valid anywhere).
 */
function bindingCheck(host: string, cert: PeerCertificate): Error | undefined {
  return cert.subjectaltname ? checkServerIdentity(host, cert) : undefined;
}

/**
 * Turns a freshly dialed management connection into a secured one (spec §3 step 2, §9): `start tls`, then a
 * TLS 1.3 client handshake on the same socket with our certificate, the server's verified against the cluster
 * CA. Runs for every session, so reconnects and failovers are secured again. Every failure closes the socket:
 * nothing continues in clear text after the server agreed to TLS.
 */
export class TlsUpgrader {
  private latest: TlsSessionInfo | null = null;
  /** A refusal of our certificate arrives after the client's handshake completes (TLS 1.3), on the first read. */
  private refusal: TlsError | null = null;
  /** Where the latest TLS session stands before its first byte of reply, for explain(). */
  private fresh: { where: string; answered: boolean } | null = null;

  constructor(
    private readonly options: MgmTlsOptions,
    private readonly timeoutMs: number,
  ) {}

  get session(): TlsSessionInfo | null {
    return this.latest;
  }

  /** The TLS reason a fresh session died during its setup, if it was one; otherwise the error itself. */
  explain(err: unknown): unknown {
    if (this.refusal) return this.refusal;
    if (this.fresh && !this.fresh.answered && err instanceof MgmError && err.code === 'CLOSED') {
      // A server that verifies in code rather than in the handshake just hangs up instead of sending an alert.
      return new TlsError(
        'HANDSHAKE',
        `management server ${this.fresh.where} closed the TLS session before its first reply: it refused ndbtop's certificate (not signed by the cluster's CA, expired, or not accepted for an API node)`,
        { cause: err },
      );
    }
    return err;
  }

  async secure(socket: Socket, host: string, port: number, signal: AbortSignal): Promise<Socket> {
    this.refusal = null;
    this.fresh = null;
    try {
      return await this.upgrade(socket, host, port, signal);
    } catch (err) {
      socket.destroy();
      throw err;
    }
  }

  private async upgrade(socket: Socket, host: string, port: number, signal: AbortSignal): Promise<Socket> {
    const where = formatHostPort(host, port);
    const strict = this.options.mode === 'strict';
    let creds: ClientCredentials;
    try {
      creds = loadClientCredentials(this.options);
    } catch (err) {
      if (strict || !(err instanceof TlsError && err.reason === 'NO_CERTIFICATE')) throw err;
      // As mgmapi: without a certificate a relaxed client does not even ask.
      this.latest = clear('no client certificate found');
      return socket;
    }
    const answer = await askStartTls(socket, where, this.timeoutMs, signal);
    if (answer.kind === 'parser-error') {
      if (strict) {
        throw new TlsError('SERVER_TOO_OLD', `management server ${where} does not know TLS (start tls: ${answer.message}; NDB before 8.3); --ndb-mgm-tls=strict forbids clear text`);
      }
      socket.resume();
      this.latest = clear('server predates TLS (NDB < 8.3)', creds.client);
      return socket;
    }
    if (answer.result === 'Failed') {
      if (strict) {
        throw new TlsError('SERVER_WITHOUT_TLS', `management server ${where} has no TLS keys (start tls: result: Failed); --ndb-mgm-tls=strict forbids clear text`);
      }
      socket.resume();
      this.latest = clear('server has no TLS keys', creds.client);
      return socket;
    }
    if (answer.result !== 'Ok') throw new TlsError('HANDSHAKE', `management server ${where} refused start tls: ${answer.result}`);
    checkValidity(creds.client, `ndbtop's client certificate ${creds.certPath}`);
    const secured = await this.handshake(socket, host, where, creds, signal);
    secured.on('error', (err) => {
      this.refusal ??= classifyTlsFailure(err, { where, host, caPath: creds.caPath });
    });
    const fresh = { where, answered: false };
    this.fresh = fresh;
    secured.once('data', () => (fresh.answered = true));
    return secured;
  }

  private handshake(socket: Socket, host: string, where: string, creds: ClientCredentials, signal: AbortSignal): Promise<TLSSocket> {
    return new Promise((resolve, reject) => {
      let tls: TLSSocket;
      try {
        tls = tlsConnect({
          socket,
          ca: creds.ca,
          cert: creds.cert,
          key: creds.key,
          minVersion: 'TLSv1.3',
          ...(isIP(host) === 0 ? { servername: host } : {}),
          checkServerIdentity: bindingCheck,
        });
      } catch (err) {
        // Node checks the files when it builds the context: a key of another certificate, or not PEM.
        return reject(new TlsError('BAD_FILE', `cannot use ${creds.certPath} with ${creds.keyPath}: ${err instanceof Error ? err.message : String(err)}`, { cause: err }));
      }
      const finish = (err: Error | null): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        tls.off('secureConnect', onSecure);
        tls.off('error', onError);
        tls.off('close', onClose);
        if (err === null) return resolve(tls);
        tls.on('error', () => {});
        tls.destroy();
        reject(err);
      };
      const onSecure = (): void => {
        const peer = tls.getPeerX509Certificate();
        this.latest = {
          secured: true,
          clearTextReason: null,
          protocol: tls.getProtocol(),
          cipher: tls.getCipher().name,
          server: peer ? certInfo(peer) : null,
          client: creds.client,
        };
        finish(null);
      };
      const onError = (err: Error): void => {
        finish(classifyTlsFailure(err, { where, host, caPath: creds.caPath }));
      };
      const onClose = (): void => finish(new TlsError('HANDSHAKE', `management server ${where} closed the connection during the TLS handshake`));
      const onAbort = (): void => finish(new TlsError('HANDSHAKE', `TLS handshake with ${where} was cancelled`));
      const timer = setTimeout(() => finish(new TlsError('HANDSHAKE', `TLS handshake with ${where} timed out after ${this.timeoutMs} ms`)), this.timeoutMs);
      tls.once('secureConnect', onSecure);
      tls.once('error', onError);
      tls.once('close', onClose);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
