import type { ServerResponse } from 'node:http';
import type { EngineHandlers } from '../../contract/page-safe/api.js';
import { call, fail, json, pathSegments, send } from './runs-http.js';

/**
 * `GET /api/incidents[?clusterId=ID][&sinceMs=EPOCH_MS]`: the cluster's incidents in full, newest first
 * (`getIncidents`); with `&summary=1` the summaries a list shows (`listIncidents`: no evidence, minute before or
 * restart phases). `GET /api/incidents/<id>[?clusterId=ID]`: one incident in full (`getIncident`), 404 when it is
 * not (or no longer) kept. Read with the serve token like the alert history.
 */
export const INCIDENTS_PATH = '/api/incidents';

export function isIncidentsPath(pathname: string): boolean {
  return pathname === INCIDENTS_PATH || pathname.startsWith(`${INCIDENTS_PATH}/`);
}

export async function handleIncidents(handlers: EngineHandlers, method: string, res: ServerResponse, url: URL): Promise<void> {
  if (method !== 'GET' && method !== 'HEAD') return send(res, 405, 'text/plain; charset=utf-8', 'Method Not Allowed\n', { Allow: 'GET, HEAD' });
  const parts = pathSegments(res, url.pathname, INCIDENTS_PATH);
  if (!parts) return;
  const clusterId = url.searchParams.get('clusterId') ?? undefined;
  const scope = clusterId === undefined ? {} : { clusterId };
  const [id, ...rest] = parts;
  if (rest.length > 0) return fail(res, 404, 'NOT_FOUND', `no such endpoint ${url.pathname}`);
  if (id !== undefined) {
    return call(handlers, res, 'getIncident', { ...scope, id }, 200, (r) => (r === null ? fail(res, 404, 'NOT_FOUND', `no incident ${id}`) : json(res, 200, r)));
  }
  const since = url.searchParams.get('sinceMs');
  const sinceMs = since === null ? undefined : Number(since);
  if (sinceMs !== undefined && !(Number.isSafeInteger(sinceMs) && sinceMs >= 0)) return fail(res, 400, 'BAD_REQUEST', 'sinceMs must be a time in ms since the epoch');
  const summary = url.searchParams.get('summary');
  if (summary !== null && summary !== '1' && summary !== 'true') return fail(res, 400, 'BAD_REQUEST', 'summary must be 1 (or true)');
  return call(handlers, res, summary === null ? 'getIncidents' : 'listIncidents', { ...scope, ...(sinceMs === undefined ? {} : { sinceMs }) }, 200);
}
