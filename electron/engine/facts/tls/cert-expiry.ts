import type { TlsView } from '../../../contract/schemas/tls.js';

const DAY_MS = 24 * 3600 * 1000;

/** Certificates of the connection that expire within the warning window, keyed so each raises one alert. */
export function expiringCerts(tls: TlsView | null | undefined, now: number): Array<{ key: string; message: string }> {
  if (!tls) return [];
  const out: Array<{ key: string; message: string }> = [];
  for (const [whose, cert] of [
    ['ndbtop client', tls.client],
    ['management server', tls.server],
  ] as const) {
    if (!cert) continue;
    const days = Math.floor((cert.validTo - now) / DAY_MS);
    if (days >= tls.expiryWarnDays) continue;
    const when = days < 0 ? 'has expired' : days === 0 ? 'expires today' : `expires in ${days} day${days === 1 ? '' : 's'}`;
    out.push({ key: `cert-expiring:${whose}:${cert.serial}`, message: `TLS certificate of the ${whose} ${when} (${new Date(cert.validTo).toISOString().slice(0, 10)}, ${cert.subject}, serial ${cert.serial})` });
  }
  return out;
}
