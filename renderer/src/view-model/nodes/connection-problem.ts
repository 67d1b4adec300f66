import type { ConnectionView } from '../../contract.js';
import { formatDuration } from '../format.js';

/** Socket error codes in the words an operator acts on. */
const CAUSES: ReadonlyArray<[RegExp, string]> = [
  [/ECONNREFUSED/, 'connection refused'],
  [/ETIMEDOUT|timed out|TIMEOUT/i, 'no answer'],
  [/ENOTFOUND|EAI_AGAIN/, 'host name not found'],
  [/EHOSTUNREACH|ENETUNREACH/, 'host unreachable'],
  [/ECONNRESET/, 'connection reset'],
];

/**
 * Why a cluster is not live, while it is not: "connection refused at db1:1186 for 41 s, retrying in 4 s". Null when
 * it is live or nothing went wrong yet. The reason is the one the engine holds for the outage (`trouble`: the command
 * link's, kept until the status changes), so the line does not cycle through each retry's and the event stream's
 * wording; the latest error is on hover. The engine's own text is kept when no cause is known.
 */
export function connectionProblem(c: ConnectionView | null, now: number): string | null {
  if (!c || c.status === 'live' || c.status === 'failed-over') return null;
  const error = c.trouble?.reason ?? c.lastError;
  if (error === null) return null;
  const cause = CAUSES.find(([pattern]) => pattern.test(error))?.[1];
  // The client names the servers it tried as host:port, the one that failed right before the code.
  const where = /([\w.-]+|\[[\da-f:]+\]):(\d+)\s*\(/i.exec(error) ?? /([\w.-]+|\[[\da-f:]+\]):(\d+)/i.exec(error);
  const said = cause ? `${cause}${where ? ` at ${where[1]}:${where[2]}` : ''}` : error;
  const what = c.trouble ? `${said} for ${formatDuration(now - c.trouble.since)}` : said;
  if (c.status === 'offline' || c.retryAt === null || c.retryAt === undefined) return what;
  const seconds = Math.max(0, Math.ceil((c.retryAt - now) / 1000));
  return `${what}, retrying ${seconds === 0 ? 'now' : `in ${seconds} s`}`;
}
