import type { ServerResponse } from 'node:http';
import type { EngineHandlers } from '../../contract/page-safe/api.js';
import { call, fail, send } from './runs-http.js';

/**
 * `GET /api/incidents[?clusterId=ID][&sinceMs=EPOCH_MS]`: the cluster's incidents, newest first (`getIncidents`),
 * read with the serve token like the alert history.
 */
export const INCIDENTS_PATH = '/api/incidents';

export async function handleIncidents(handlers: EngineHandlers, method: string, res: ServerResponse, url: URL): Promise<void> {
  if (method !== 'GET' && method !== 'HEAD') return send(res, 405, 'text/plain; charset=utf-8', 'Method Not Allowed\n', { Allow: 'GET, HEAD' });
  const clusterId = url.searchParams.get('clusterId') ?? undefined;
  const since = url.searchParams.get('sinceMs');
  const sinceMs = since === null ? undefined : Number(since);
  if (sinceMs !== undefined && !(Number.isSafeInteger(sinceMs) && sinceMs >= 0)) return fail(res, 400, 'BAD_REQUEST', 'sinceMs must be a time in ms since the epoch');
  return call(handlers, res, 'getIncidents', { ...(clusterId === undefined ? {} : { clusterId }), ...(sinceMs === undefined ? {} : { sinceMs }) }, 200);
}
