import { TlsError } from '../../errors.js';

/** OpenSSL verification codes that mean "this certificate was not issued by a CA we trust". */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_SIGNATURE_FAILURE',
  'CERT_CHAIN_TOO_LONG',
]);

/** Alerts the server sends when it refuses our certificate (it verifies the client, spec §9). */
const PEER_REFUSED_OUR_CERT = new Set([
  'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA',
  'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE',
  'ERR_SSL_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE',
  'ERR_SSL_TLSV1_ALERT_DECRYPT_ERROR',
]);

export interface FailureContext {
  where: string;
  host: string;
  caPath: string;
}

/** Turns what Node/OpenSSL report about a handshake into one of the TLS failures an operator can act on. */
export function classifyTlsFailure(err: Error, ctx: FailureContext): TlsError {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  const opts = { cause: err };
  if (code === 'CERT_HAS_EXPIRED') return new TlsError('CERT_EXPIRED', `the certificate of management server ${ctx.where} has expired`, opts);
  if (code === 'CERT_NOT_YET_VALID') return new TlsError('CERT_NOT_YET_VALID', `the certificate of management server ${ctx.where} is not valid yet (check the clocks)`, opts);
  if (UNTRUSTED.has(code)) {
    return new TlsError('CA_MISMATCH', `the certificate of management server ${ctx.where} is not signed by the cluster CA ndbtop trusts (${ctx.caPath}): ${code}`, opts);
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    // Node attaches the offending certificate to this error; its altnames read "DNS:a, IP Address:b".
    const san = (err as { cert?: { subjectaltname?: string } }).cert?.subjectaltname ?? '';
    const names = san.split(', ').map((n) => n.replace(/^(DNS|IP Address):/, '')).filter((n) => n !== '');
    const bound = names.length > 0 ? names.join(', ') : 'other names';
    return new TlsError('HOSTNAME_MISMATCH', `the certificate of management server ${ctx.where} is bound to ${bound}, not to ${ctx.host}`, opts);
  }
  if (PEER_REFUSED_OUR_CERT.has(code)) {
    return new TlsError('CA_MISMATCH', `management server ${ctx.where} refused ndbtop's certificate: it is not signed by the cluster's CA (${code})`, opts);
  }
  if (code === 'ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED') {
    return new TlsError('CERT_EXPIRED', `management server ${ctx.where} refused ndbtop's certificate as expired`, opts);
  }
  return new TlsError('HANDSHAKE', `TLS handshake with management server ${ctx.where} failed: ${err.message}`, opts);
}
