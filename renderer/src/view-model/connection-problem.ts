import type { ConnectionView } from '../contract.js';

/** Socket error codes in the words an operator acts on. */
const CAUSES: ReadonlyArray<[RegExp, string]> = [
  [/ECONNREFUSED/, 'connection refused'],
  [/ETIMEDOUT|timed out|TIMEOUT/i, 'no answer'],
  [/ENOTFOUND|EAI_AGAIN/, 'host name not found'],
  [/EHOSTUNREACH|ENETUNREACH/, 'host unreachable'],
  [/ECONNRESET/, 'connection reset'],
];

/**
 * Why a cluster is not live, while it is not: "connection refused at db1:1186, retrying in 4 s". Null when it is
 * live or nothing went wrong yet. The engine's own error text is kept (in full on hover) when no cause is known.
 */
export function connectionProblem(c: ConnectionView | null, now: number): string | null {
  if (!c || c.status === 'live' || c.status === 'failed-over' || c.lastError === null) return null;
  const error = c.lastError;
  const cause = CAUSES.find(([pattern]) => pattern.test(error))?.[1];
  // The client names the servers it tried as host:port, the one that failed right before the code.
  const where = /([\w.-]+|\[[\da-f:]+\]):(\d+)\s*\(/i.exec(error) ?? /([\w.-]+|\[[\da-f:]+\]):(\d+)/i.exec(error);
  const what = cause ? `${cause}${where ? ` at ${where[1]}:${where[2]}` : ''}` : error;
  if (c.status === 'offline' || c.retryAt === null || c.retryAt === undefined) return what;
  const seconds = Math.max(0, Math.ceil((c.retryAt - now) / 1000));
  return `${what}, retrying ${seconds === 0 ? 'now' : `in ${seconds} s`}`;
}
