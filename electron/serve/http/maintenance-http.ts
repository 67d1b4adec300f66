import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EngineHandlers } from '../../contract/page-safe/api.js';
import { call, fail, jsonBody, pathSegments, send } from './runs-http.js';

/**
 * Maintenance windows and the alert history over HTTP. Reading takes the serve token (or loopback), as runs do;
 * opening, extending or closing a window silences or unsilences alerts for everyone, so it is a change (403 unless
 * serve runs with --allow-changes), as acknowledging is: `POST /api/maintenance` {reason?, silence?: [kind],
 * silenceCritical?, durationMs?, by?, clusterId?} opens one, `POST /api/maintenance/<id>/extend` {durationMs, by?}
 * pushes its end further, `POST /api/maintenance/<id>/stop` {by?} closes it, `GET /api/maintenance` lists them;
 * `GET /api/alerts/history` is every alert of the session with raise and clear times, and every window's events.
 */
export const MAINTENANCE_PATH = '/api/maintenance';
export const ALERT_HISTORY_PATH = '/api/alerts/history';

export function isMaintenancePath(pathname: string): boolean {
  return pathname === MAINTENANCE_PATH || pathname.startsWith(`${MAINTENANCE_PATH}/`) || pathname === ALERT_HISTORY_PATH;
}

export async function handleMaintenance(handlers: EngineHandlers, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const clusterId = url.searchParams.get('clusterId') ?? undefined;
  const scope = clusterId === undefined ? {} : { clusterId };
  const method = req.method ?? 'GET';
  const allow = (methods: string): void => send(res, 405, 'text/plain; charset=utf-8', 'Method Not Allowed\n', { Allow: methods });
  const reading = method === 'GET' || method === 'HEAD';
  if (url.pathname === ALERT_HISTORY_PATH) return reading ? call(handlers, res, 'getAlertHistory', scope, 200) : allow('GET, HEAD');
  const parts = pathSegments(res, url.pathname, MAINTENANCE_PATH);
  if (!parts) return;
  const [windowId, action, ...rest] = parts;
  if (rest.length > 0 || (windowId !== undefined && action !== 'stop' && action !== 'extend')) return fail(res, 404, 'NOT_FOUND', `no such endpoint ${url.pathname}`);
  if (windowId === undefined && reading) return call(handlers, res, 'listMaintenance', scope, 200);
  if (method !== 'POST') return allow(windowId === undefined ? 'GET, HEAD, POST' : 'POST');
  const body = await jsonBody(req, res);
  if (body === null) return;
  if (windowId === undefined) return call(handlers, res, 'startMaintenance', { ...scope, ...body }, 201);
  return call(handlers, res, action === 'extend' ? 'extendMaintenance' : 'stopMaintenance', { ...scope, ...body, windowId }, 200);
}
