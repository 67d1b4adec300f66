// Through the module object, so a test can watch the comparison a real request makes.
import crypto from 'node:crypto';
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';

/** Loopback only; `localhost` is trusted as the resolver's loopback name. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h === '::1' || h.startsWith('::ffff:127.');
}

/** Misconfiguration the user must fix (the CLI exits 2 on it). */
export class ServeConfigError extends Error {
  override readonly name = 'ServeConfigError';
}

/** Checked by the CLI before anything starts, and again by the server before it listens. */
export function checkServeOptions(host: string, token: string | undefined): void {
  if (token !== undefined && token.length < 8) throw new ServeConfigError('--token must be at least 8 characters');
  if (!isLoopbackHost(host) && token === undefined) {
    throw new ServeConfigError(`refusing to serve on ${host} without --token: anyone who can reach it would see the cluster (bind 127.0.0.1, or pass --token)`);
  }
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

const digest = (s: string): Buffer => crypto.createHash('sha256').update(s, 'utf8').digest();

/** Constant time in the token's content: both sides are hashed to equal length before comparing. */
export function tokenMatches(expected: string, presented: string | null): boolean {
  return crypto.timingSafeEqual(digest(expected), digest(presented ?? '')) && presented !== null;
}

/**
 * A browser page on another site may open a WebSocket to 127.0.0.1 or rebind a DNS name to it: a request that
 * says where it comes from (Origin) must come from the dashboard itself: serve's own scheme (http, or https with
 * --tls-cert) and the host it addresses. Another scheme on the same host (an extension, `null`) is another site.
 */
export function isSameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    const url = new URL(origin);
    // The dashboard's own scheme: https when serve speaks TLS (the socket says), else http.
    const scheme = (req.socket as { encrypted?: boolean }).encrypted === true ? 'https:' : 'http:';
    return url.protocol === scheme && url.host === req.headers.host && url.origin === origin.toLowerCase();
  } catch {
    return false;
  }
}

/**
 * What a request may call this server in its Host header. DNS rebinding always arrives under a name the attacker
 * owns, so a name is accepted only when the operator configured it (`--allow-host`, any port: a reverse proxy may
 * drop it) or when it is a loopback name on a loopback bind; an IP literal is accepted when it is the bound address
 * (any address on a wildcard bind, where the browser typed it). Both on the listening port.
 */
export interface HostPolicy {
  bound: string;
  /** Set once listening (port 0 picks one). */
  port: number;
  secure: boolean;
  /** Lower case. */
  names: readonly string[];
}

/** `name[:port]` or `[v6]:port`, nothing else (no userinfo, path or spaces that a URL parser would skip over). */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i;
const WILDCARD = new Set(['0.0.0.0', '::']);

export function hostAllowed(header: string | undefined, policy: HostPolicy): boolean {
  const m = HOST_HEADER.exec(header ?? '');
  if (!m?.[1]) return false;
  const name = m[1].toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (policy.names.includes(name)) return true;
  const port = m[2] === undefined ? (policy.secure ? 443 : 80) : Number(m[2]);
  if (port !== policy.port) return false;
  const bound = policy.bound.toLowerCase();
  if (name === bound) return true;
  if (isLoopbackHost(bound)) return isLoopbackHost(name);
  return WILDCARD.has(bound) && (isIP(name) !== 0 || isLoopbackHost(name));
}

/**
 * The request's one Host value, or undefined when it has none or several Host lines: Node keeps the first and
 * drops the rest, so `Host: <ours>` then an empty `Host:` passed for ours, while HTTP (RFC 9112 §3.2) refuses a
 * request with more than one. Either is refused like an unknown host.
 */
export function singleHost(req: IncomingMessage): string | undefined {
  let lines = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]?.toLowerCase() === 'host') lines += 1;
  return lines === 1 ? req.headers.host : undefined;
}

export interface AccessPolicy {
  token: string | undefined;
  hosts: HostPolicy;
}

export type Admission = { ok: true } | { ok: false; status: 401 | 403; reason: string };

/**
 * Whether a request or WebSocket upgrade may proceed: it must address this server by an allowed Host (DNS
 * rebinding), present the token when there is one, and, from a browser, come from the dashboard's own Origin.
 */
export function admit(req: IncomingMessage, access: AccessPolicy): Admission {
  if (!hostAllowed(singleHost(req), access.hosts)) return { ok: false, status: 403, reason: 'Forbidden host' };
  if (access.token !== undefined && !tokenMatches(access.token, presentedToken(req))) return { ok: false, status: 401, reason: 'Unauthorized' };
  if (!isSameOrigin(req)) return { ok: false, status: 403, reason: 'Forbidden origin' };
  return { ok: true };
}
