import type { Reply } from '../frames.js';
import { acceptReply } from './reply-fields.js';

/** `get tls stats` (spec §9): server-wide counters since the management server started. */
export interface TlsStats {
  accepted: number;
  upgraded: number;
  current: number;
  tls: number;
  authfail: number;
}

/** One TLS session with a client certificate, from `list certs` (spec §9). */
export interface SessionCert {
  session: number;
  address: string;
  serial: string;
  name: string;
  /** As the server prints it: `DD-Mon-YYYY`. */
  expires: string;
}

export function parseTlsStatsReply(reply: Reply): TlsStats {
  const { fields } = acceptReply(reply, 'get tls stats');
  return {
    accepted: fields.int('accepted'),
    upgraded: fields.int('upgraded'),
    current: fields.int('current'),
    tls: fields.int('tls'),
    authfail: fields.int('authfail'),
  };
}

/** Each entry starts at its `session` line; keys the spec does not list are ignored, as in any reply. */
export function parseListCertsReply(reply: Reply): SessionCert[] {
  const { reply: ok } = acceptReply(reply, 'list certs');
  const out: SessionCert[] = [];
  let cur: SessionCert | null = null;
  for (const [key, value] of ok.pairs) {
    if (key === 'session') {
      cur = { session: Number.parseInt(value, 10), address: '', serial: '', name: '', expires: '' };
      out.push(cur);
    } else if (cur !== null && (key === 'address' || key === 'serial' || key === 'name' || key === 'expires')) {
      cur[key] = value;
    }
  }
  return out;
}
