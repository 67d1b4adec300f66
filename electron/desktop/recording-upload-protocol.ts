import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { EngineHost } from '../engine/core/engine-host.js';
import { DEFAULT_MAX_UPLOAD_BYTES, DEFAULT_UPLOAD_IDLE_MS, receiveRecording, RECORDINGS_PATH } from '../serve/http/recording-upload.js';
import { APP_HOST, APP_SCHEME } from './ipc-guard.js';

/** `app://ndbtop/api/recordings?name=FILE`: the desktop page's recording upload (any other URL is a file). */
export function isRecordingUpload(requestUrl: string): boolean {
  const url = new URL(requestUrl);
  return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST && url.pathname === RECORDINGS_PATH;
}

/**
 * The desktop's side of importing a recording: the page POSTs the file to its own app:// origin and main.ts hands
 * the request here, to the same streaming handler as serve mode's `POST /api/recordings` (so compressed files
 * and files of any size import alike, with the reading's progress). The desktop user owns the engine, so the
 * import is always allowed; only our own page can reach app://.
 */
export async function desktopRecordingUpload(engine: EngineHost, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const body = request.body ? Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>) : Readable.from([]);
  const upload = { method: request.method, contentType: request.headers.get('content-type') ?? '', contentLength: Number(request.headers.get('content-length') ?? 0), name: url.searchParams.get('name') ?? '', body };
  const reply = await receiveRecording(engine, upload, { allowChanges: true, maxBytes: DEFAULT_MAX_UPLOAD_BYTES, idleMs: DEFAULT_UPLOAD_IDLE_MS });
  const answer = typeof reply.body === 'string' ? reply.body : (Readable.toWeb(reply.body) as ReadableStream<Uint8Array>);
  return new Response(answer, { status: reply.status, headers: reply.headers });
}
