import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { EngineHandlers } from '../../contract/page-safe/api.js';
import { escapedJson } from '../../contract/page-safe/outside-text.js';
import { BAD_MESSAGE, dispatchRequest } from '../transport/bridge.js';
import { securityHeaders } from './security-headers.js';
import { INTERNAL } from '../transport/internal-error.js';

/**
 * `GET /api/export?format=csv|json[&clusterId=][&fromMs=][&toMs=][&marks=<JSON>]`: the history export as a download. An hour of a large
 * cluster is tens of megabytes, far more than a WebSocket client may have buffered, so browsers in serve mode
 * fetch it here, where it goes out in chunks at the pace the client reads.
 */
export const EXPORT_PATH = '/api/export';
const CHUNK_CHARS = 64 * 1024;

/** The status of each error code an export can fail with; the rest are the request's fault. */
const STATUS_OF: Record<string, number> = { NOT_FOUND: 404, [INTERNAL]: 500 };

function fail(res: ServerResponse, status: number, message: string, code = BAD_MESSAGE): void {
  const body = `${escapedJson({ error: { code, message } })}\n`;
  res.writeHead(status, { ...securityHeaders(), 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' });
  res.end(body);
}

export async function streamExport(handlers: EngineHandlers, url: URL, res: ServerResponse): Promise<void> {
  const q = url.searchParams;
  // Numbers and the marks' JSON are only decoded here; the contract's schema judges them like any request.
  const integer = (name: string) => {
    const text = q.get(name);
    return text === null ? {} : { [name]: /^\d+$/.test(text) ? Number(text) : text };
  };
  const marks = q.get('marks');
  let markList: unknown = marks;
  try {
    if (marks !== null) markList = JSON.parse(marks);
  } catch {
    return fail(res, 400, 'marks is not JSON');
  }
  const request = {
    format: q.get('format') ?? 'csv',
    ...(q.has('clusterId') ? { clusterId: q.get('clusterId') } : {}),
    ...integer('fromMs'),
    ...integer('toMs'),
    ...(marks !== null ? { marks: markList } : {}),
  };
  const result = await dispatchRequest(handlers, 'exportHistory', request);
  if (!result.ok) return fail(res, STATUS_OF[result.error.code] ?? 400, result.error.message, result.error.code);
  const file = result.response as { filename: string; mime: string; content: string };
  res.writeHead(200, {
    ...securityHeaders(),
    'Content-Type': `${file.mime}; charset=utf-8`,
    // The filename is ours (cluster name reduced to [A-Za-z0-9_-]), so it needs no quoting beyond this.
    'Content-Disposition': `attachment; filename="${file.filename}"`,
    'Cache-Control': 'no-store',
  });
  if (res.req.method === 'HEAD') return void res.end();
  for (let at = 0; at < file.content.length; at += CHUNK_CHARS) {
    if (res.destroyed) return;
    // Back-pressure: a slow reader holds one chunk in our buffers, not the whole export.
    if (!res.write(file.content.slice(at, at + CHUNK_CHARS))) await Promise.race([once(res, 'drain'), once(res, 'close')]);
  }
  res.end();
}
