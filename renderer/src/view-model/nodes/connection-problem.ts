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
 * Why a cluster is not live, while it is not: "connection refused at db1:1186 for 41 s, retrying in 4 s", or for a
 * link that dropped without a known cause "connection lost 28 s ago, retrying in 4 s" (never "closed the connection
 * for 28 s", which reads as if the server closed it for that long). Null when it is live or nothing went wrong yet.
 * The reason is the one the engine holds for the outage (`trouble`: the command link's, kept until the status
 * changes), so the line does not cycle through each retry's and the event stream's wording; its full words are on
 * hover (`connectionProblemTitle`) and in the alert.
 */
export function connectionProblem(c: ConnectionView | null, now: number): string | null {
  if (!c || c.status === 'live' || c.status === 'failed-over') return null;
  const error = c.trouble?.reason ?? c.lastError;
  if (error === null) return null;
  const cause = CAUSES.find(([pattern]) => pattern.test(error))?.[1];
  // The client names the servers it tried as host:port, the one that failed right before the code.
  const where = /([\w.-]+|\[[\da-f:]+\]):(\d+)\s*\(/i.exec(error) ?? /([\w.-]+|\[[\da-f:]+\]):(\d+)/i.exec(error);
  // A link that was up and dropped; a first connect or a refusal without a known cause keeps the engine's words.
  const lost = cause === undefined && (c.status === 'reconnecting' || c.status === 'offline');
  const said = cause ? `${cause}${where ? ` at ${where[1]}:${where[2]}` : ''}` : lost ? 'connection lost' : error;
  const age = c.trouble ? formatDuration(now - c.trouble.since) : null;
  const what = age === null ? said : lost ? `${said} ${age} ago` : `${said} for ${age}`;
  if (c.status === 'offline' || c.retryAt === null || c.retryAt === undefined) return what;
  const seconds = Math.max(0, Math.ceil((c.retryAt - now) / 1000));
  return `${what}, retrying ${seconds === 0 ? 'now' : `in ${seconds} s`}`;
}

/** The problem's full words for the hover: the outage's reason, and the latest error when a retry said something else. */
export function connectionProblemTitle(c: ConnectionView | null): string {
  const reason = c?.trouble?.reason ?? c?.lastError ?? '';
  const latest = c?.lastError ?? null;
  return latest !== null && latest !== reason ? `${reason}\nlatest: ${latest}` : reason;
}
