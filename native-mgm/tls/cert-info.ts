import type { X509Certificate } from 'node:crypto';
import { TlsError } from '../errors.js';

/** What an operator wants to know about a certificate: who, signed by whom, which one, until when, bound where. */
export interface CertInfo {
  subject: string;
  issuer: string;
  /** Hex, as openssl and NDB's `list certs` print serials. */
  serial: string;
  validFrom: number;
  validTo: number;
  /** Host names and addresses the certificate is bound to (subjectAltName); empty = not bound. */
  hostnames: string[];
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM file in order (a node certificate file holds the node's, then its CA chain). */
export function splitPemCertificates(pem: string): string[] {
  return pem.match(PEM_CERT) ?? [];
}

const oneLine = (dn: string): string => dn.split('\n').filter((s) => s !== '').join(', ');

export function certInfo(cert: X509Certificate): CertInfo {
  const san = cert.subjectAltName ?? '';
  const hostnames = san
    .split(', ')
    .map((entry) => /^(?:DNS|IP Address):(.+)$/.exec(entry)?.[1])
    .filter((h): h is string => h !== undefined);
  return {
    subject: oneLine(cert.subject),
    issuer: oneLine(cert.issuer),
    serial: cert.serialNumber.toUpperCase(),
    validFrom: Date.parse(cert.validFrom),
    validTo: Date.parse(cert.validTo),
    hostnames,
  };
}

/** Refuses a certificate outside its validity period, naming whose certificate it is. */
export function checkValidity(info: CertInfo, whose: string, now = Date.now()): void {
  if (now > info.validTo) {
    throw new TlsError('CERT_EXPIRED', `${whose} expired on ${new Date(info.validTo).toISOString()} (${info.subject}, serial ${info.serial})`);
  }
  if (now < info.validFrom) {
    throw new TlsError('CERT_NOT_YET_VALID', `${whose} is not valid before ${new Date(info.validFrom).toISOString()} (${info.subject}, serial ${info.serial})`);
  }
}
