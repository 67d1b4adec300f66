import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EngineHandlers } from '../../contract/page-safe/api.js';
import type { RequestName } from '../../contract/schemas/channels.js';
import { call, fail, jsonBody, pathSegments, send } from './runs-http.js';

/**
 * The hosted rolling restart over HTTP, beside runs and maintenance and under their rules (the serve token, or
 * loopback), and gated like every operator action: refused (403) unless serve runs with --allow-actions.
 * `GET /api/rolling-restart` is the plan (null: none), `POST /api/rolling-restart` {nodes?, order?, pauseMs?,
 * clusterId?} makes one (nothing is sent), `POST /api/rolling-restart/<planId>/start|halt|resume|abort` acts on it
 * (resume takes {skip?: true}).
 */
export const ROLLING_PATH = '/api/rolling-restart';

const ACTIONS: Record<string, RequestName> = {
  start: 'startRollingRestart',
  halt: 'haltRollingRestart',
  resume: 'resumeRollingRestart',
  abort: 'abortRollingRestart',
};

export function isRollingPath(pathname: string): boolean {
  return pathname === ROLLING_PATH || pathname.startsWith(`${ROLLING_PATH}/`);
}

export async function handleRolling(handlers: EngineHandlers, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const clusterId = url.searchParams.get('clusterId') ?? undefined;
  const scope = clusterId === undefined ? {} : { clusterId };
  const method = req.method ?? 'GET';
  const allow = (methods: string): void => send(res, 405, 'text/plain; charset=utf-8', 'Method Not Allowed\n', { Allow: methods });
  const parts = pathSegments(res, url.pathname, ROLLING_PATH);
  if (!parts) return;
  const [planId, action, ...rest] = parts;
  const request = action === undefined ? undefined : ACTIONS[action];
  if (rest.length > 0 || (planId !== undefined && request === undefined)) return fail(res, 404, 'NOT_FOUND', `no such endpoint ${url.pathname}`);
  if (planId === undefined && (method === 'GET' || method === 'HEAD')) return call(handlers, res, 'getRollingRestart', scope, 200);
  if (method !== 'POST') return allow(planId === undefined ? 'GET, HEAD, POST' : 'POST');
  const body = await jsonBody(req, res);
  if (body === null) return;
  if (planId === undefined || request === undefined) return call(handlers, res, 'planRollingRestart', { ...scope, ...body }, 201);
  return call(handlers, res, request, { ...scope, ...(request === 'resumeRollingRestart' ? body : {}), planId }, 200);
}
