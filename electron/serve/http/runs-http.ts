import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestName } from '../../contract/schemas/channels.js';
import type { EngineHandlers } from '../../contract/page-safe/api.js';
import { escapedJson } from '../../contract/page-safe/outside-text.js';
import { formatReports, REPORT_FORMATS, reportJson, type ReportFormat } from '../../engine/features/runs/report-format.js';
import type { RunReports } from '../../contract/schemas/runs.js';
import { BAD_MESSAGE, dispatchRequest } from '../transport/bridge.js';
import { securityHeaders } from './security-headers.js';

/**
 * The HTTP side of benchmark runs, for scripts: `POST /api/runs` {name, tags?, phase?, clusterId?} starts one,
 * `POST /api/runs/<id>/phase` {name} and `POST /api/runs/<id>/stop` mark it, `GET /api/runs` lists the reports
 * and `GET /api/runs/<id>?format=md|csv|json` gives one. Marks change no cluster: they are admitted by the serve
 * token (or loopback) like every request, and are never subject to the operator-actions switch.
 */
export const RUNS_PATH = '/api/runs';
const MAX_BODY = 64 * 1024;
const STATUS_OF: Record<string, number> = { [BAD_MESSAGE]: 400, BAD_REQUEST: 400, INVALID: 400, FORBIDDEN: 403, NOT_FOUND: 404, CONFLICT: 409, UNSUPPORTED: 409 };

export function isRunsPath(pathname: string): boolean {
  return pathname === RUNS_PATH || pathname.startsWith(`${RUNS_PATH}/`);
}

/**
 * The path's segments after `prefix`, decoded; null once a path that is not valid percent-encoding (`%E0%A4%A`)
 * was answered 400 (decodeURIComponent's URIError is the client's doing, not the server's).
 */
export function pathSegments(res: ServerResponse, pathname: string, prefix: string): string[] | null {
  try {
    return pathname.slice(prefix.length).split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    fail(res, 400, 'BAD_REQUEST', 'the path is not valid percent-encoding');
    return null;
  }
}

/** A request's JSON body, or null once a malformed or oversized one was answered with its error. */
export async function jsonBody(req: IncomingMessage, res: ServerResponse): Promise<Record<string, unknown> | null> {
  try {
    return await readJson(req);
  } catch (err) {
    if (err instanceof BodyError) {
      fail(res, err.status, 'BAD_REQUEST', err.message);
      return null;
    }
    throw err;
  }
}

export function send(res: ServerResponse, status: number, contentType: string, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...securityHeaders(), 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store', ...extra });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

export const json = (res: ServerResponse, status: number, value: unknown): void => send(res, status, 'application/json; charset=utf-8', escapedJson(value));
export const fail = (res: ServerResponse, status: number, code: string, message: string): void => json(res, status, { error: { code, message } });

export class BodyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A JSON object body; an empty body is `{}`. A body must say it is JSON, which no cross-site form can. */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new BodyError(413, `body over ${MAX_BODY} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) throw new BodyError(415, 'send the body as Content-Type: application/json');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BodyError(400, 'the body is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BodyError(400, 'the body must be a JSON object');
  return value as Record<string, unknown>;
}

export async function call(handlers: EngineHandlers, res: ServerResponse, name: RequestName, request: unknown, ok: number, render?: (r: unknown) => void): Promise<void> {
  const result = await dispatchRequest(handlers, name, request);
  if (!result.ok) return fail(res, STATUS_OF[result.error.code] ?? 500, result.error.code, result.error.message);
  if (render) return render(result.response);
  json(res, ok, result.response);
}

export async function handleRuns(handlers: EngineHandlers, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const parts = pathSegments(res, url.pathname, RUNS_PATH);
  if (!parts) return;
  const clusterId = url.searchParams.get('clusterId') ?? undefined;
  const scope = clusterId === undefined ? {} : { clusterId };
  const method = req.method ?? 'GET';
  const [runId, action, ...rest] = parts;
  const allow = (methods: string): void => send(res, 405, 'text/plain; charset=utf-8', 'Method Not Allowed\n', { Allow: methods });
  if (rest.length > 0 || (action !== undefined && action !== 'phase' && action !== 'stop')) return fail(res, 404, 'NOT_FOUND', `no such endpoint ${url.pathname}`);

  if (method === 'GET' || method === 'HEAD') {
    if (action !== undefined) return allow('POST');
    const format = (url.searchParams.get('format') ?? 'json') as ReportFormat;
    if (!REPORT_FORMATS.includes(format)) return fail(res, 400, 'BAD_REQUEST', `format must be one of ${REPORT_FORMATS.join(', ')}`);
    const request = { ...scope, ...(runId === undefined ? {} : { runIds: [runId] }) };
    return call(handlers, res, 'getRunReports', request, 200, (r) => {
      const reports = r as RunReports;
      if (format === 'json') return json(res, 200, runId === undefined ? reportJson(reports) : (reportJson(reports) as { runs: unknown[] }).runs[0]);
      send(res, 200, format === 'md' ? 'text/markdown; charset=utf-8' : 'text/csv; charset=utf-8', formatReports(reports, format));
    });
  }
  if (method !== 'POST') return allow(action === undefined ? 'GET, HEAD, POST' : 'POST');
  const body = await jsonBody(req, res);
  if (body === null) return;
  if (runId === undefined) return call(handlers, res, 'startRun', { ...scope, ...body }, 201);
  if (action === 'phase') return call(handlers, res, 'markPhase', { ...scope, ...body, runId }, 200);
  if (action === 'stop') return call(handlers, res, 'stopRun', { ...scope, runId }, 200);
  return allow('GET, HEAD');
}
