import type { CertView, TlsView } from '../contract.js';

const DAY_MS = 24 * 3600 * 1000;

export type TlsState = 'tls' | 'clear' | 'error' | 'off';

/** One word for the header beside the connection chip: TLS, CLEAR TEXT, or TLS ERROR while a TLS failure stands. */
export function tlsState(tls: TlsView | null | undefined): TlsState {
  if (!tls || tls.mode === 'off') return 'off';
  if (tls.problem !== null) return 'error';
  return tls.secured ? 'tls' : 'clear';
}

export function tlsTitle(tls: TlsView): string {
  if (tls.problem !== null) return tls.problem;
  if (!tls.secured) return `clear text (${tls.clearTextReason ?? 'no TLS'}); --ndb-mgm-tls=${tls.mode}`;
  const server = tls.server;
  return `${tls.protocol ?? 'TLS'}${server ? ` · server ${server.subject} · issuer ${server.issuer} · serial ${server.serial} · expires ${isoDate(server.validTo)}` : ''}`;
}

export const isoDate = (t: number): string => new Date(t).toISOString().slice(0, 10);

/** Whole days until the certificate expires (negative once expired). */
export function daysLeft(cert: CertView, now: number): number {
  return Math.floor((cert.validTo - now) / DAY_MS);
}

export function expiryTone(cert: CertView, warnDays: number, now: number): 'ok' | 'warn' | 'bad' {
  const days = daysLeft(cert, now);
  return days < 0 ? 'bad' : days < warnDays ? 'warn' : 'ok';
}
