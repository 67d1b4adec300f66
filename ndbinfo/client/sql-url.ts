import { NdbinfoError } from './errors.js';

/** One SQL node as the user named it: `mysql://USER@HOST[:PORT]`. */
export interface SqlNodeAddress {
  readonly user: string;
  readonly host: string;
  readonly port: number;
  /** The URL as shown to the user, in logs, errors and recordings (never carries a password: none is accepted). */
  readonly display: string;
}

export const DEFAULT_SQL_PORT = 3306;

const PASSWORD_HINT = 'give the password in a file (--sql-password-file FILE) or in NDBTOP_SQL_PASSWORD, never on the command line';

function bad(input: string, why: string): NdbinfoError {
  return new NdbinfoError('BAD_URL', `bad --sql URL ${JSON.stringify(input)}: ${why}; expected mysql://USER@HOST[:PORT]`);
}

/**
 * Parses `mysql://USER@HOST[:PORT]` (IPv6 hosts in brackets). A password in the URL is refused, and the message
 * does not repeat the URL, since that would print the password in the user's terminal and logs.
 */
export function parseSqlUrl(input: string): SqlNodeAddress {
  const scheme = /^mysql:\/\//i;
  if (!scheme.test(input)) return fail(bad(input, 'it must start with mysql://'));
  const authority = input.replace(scheme, '').replace(/\/$/, '');
  const at = authority.lastIndexOf('@');
  const userinfo = at < 0 ? '' : authority.slice(0, at);
  if (userinfo.includes(':')) throw new NdbinfoError('BAD_URL', `a --sql URL must not contain a password: ${PASSWORD_HINT}`);
  if (userinfo === '') return fail(bad(input, 'the user is missing'));
  const hostPort = authority.slice(at + 1);
  if (/[/?#]/.test(hostPort)) return fail(bad(input, 'no path, query or fragment is allowed (ndbtop always reads the ndbinfo schema)'));
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(hostPort);
  if (!m) return fail(bad(input, 'the host is missing or malformed'));
  const host = m[1] ?? m[2] ?? '';
  const port = m[3] === undefined ? DEFAULT_SQL_PORT : Number(m[3]);
  if (port < 1 || port > 65535) return fail(bad(input, 'the port must be from 1 to 65535'));
  let user: string;
  try {
    user = decodeURIComponent(userinfo);
  } catch {
    return fail(bad(input, 'the user has a malformed %-escape'));
  }
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return { user, host, port, display: `mysql://${userinfo}@${shownHost}:${port}` };
}

function fail(err: NdbinfoError): never {
  throw err;
}
