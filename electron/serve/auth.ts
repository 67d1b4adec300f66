import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';

/** Loopback only; `localhost` is trusted as the resolver's loopback name. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h === '::1' || h.startsWith('::ffff:127.');
}

export const TOKEN_COOKIE = 'ndbtop_token';

/**
 * The token from `Authorization: Bearer T`, else `?token=T`, else our cookie. The page opened from the URL the
 * CLI prints has it in the query; the cookie set on that answer carries it to the page's relative asset URLs.
 */
export function presentedToken(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  const bearer = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (bearer?.[1]) return bearer[1];
  const query = new URL(req.url ?? '/', 'http://localhost').searchParams.get('token');
  if (query !== null) return query;
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === TOKEN_COOKIE) return decodeURIComponent(value.join('='));
  }
  return null;
}

/** Over HTTPS the cookie is `Secure`, so a browser never sends the token over plain HTTP. */
export function tokenCookie(token: string, secure = false): string {
  return `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** Constant time in the token's content: both sides are hashed to equal length before comparing. */
export function tokenMatches(expected: string, presented: string | null): boolean {
  return timingSafeEqual(digest(expected), digest(presented ?? '')) && presented !== null;
}

/**
 * A browser page on another site may open a WebSocket to 127.0.0.1 or rebind a DNS name to it: a request that
 * says where it comes from (Origin) must come from the host it addresses.
 */
export function isSameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

function hostName(hostHeader: string | undefined): string {
  if (!hostHeader) return '';
  return hostHeader.startsWith('[') ? hostHeader.slice(0, hostHeader.indexOf(']') + 1) : (hostHeader.split(':')[0] ?? '');
}

export type Admission = { ok: true } | { ok: false; status: 401 | 403; reason: string };

/**
 * Whether a request or WebSocket upgrade may proceed. With a token it must present it; without one (loopback
 * only) it must address a loopback name, which defeats DNS rebinding. Either way a browser's Origin must match.
 */
export function admit(req: IncomingMessage, token: string | undefined): Admission {
  if (token !== undefined && !tokenMatches(token, presentedToken(req))) return { ok: false, status: 401, reason: 'Unauthorized' };
  if (token === undefined && !isLoopbackHost(hostName(req.headers.host))) return { ok: false, status: 403, reason: 'Forbidden host' };
  if (!isSameOrigin(req)) return { ok: false, status: 403, reason: 'Forbidden origin' };
  return { ok: true };
}
