import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { EngineHost } from '../../engine/core/engine-host.js';
import { escapedJson } from '../../contract/page-safe/outside-text.js';
import { securityHeaders } from './security-headers.js';
import { toWireError } from '../transport/bridge.js';
import { answerable, type ErrorLog } from '../transport/internal-error.js';

/**
 * `POST /api/recordings?name=FILE` with the recording's bytes (plain or compressed) as
 * `Content-Type: application/octet-stream`: the runs of a recording imported for comparison. The WebSocket
 * refuses messages over 1 MiB; this streams the body to a temporary file (never holding it in memory), then
 * reads the file as `ndbtop report` does. The answer is NDJSON as it goes: `{"progress":{"done","total"}}`
 * lines while the file is read, then `{"runs":[…]}` or `{"error":{"code","message"}}`. It changes what every
 * viewer sees, so it is gated like the requests that change the server (`--allow-changes`); the token, Host and
 * Origin checks are the server's, and a browser's cross-site form cannot send this content type.
 */
export const RECORDINGS_PATH = '/api/recordings';
export const DEFAULT_MAX_UPLOAD_BYTES = 4 * 1024 ** 3;

const sizeText = (bytes: number): string => (bytes >= 1024 ** 3 ? `${+(bytes / 1024 ** 3).toFixed(2)} GiB` : `${+(bytes / 1024 ** 2).toFixed(2)} MiB`);

class TooLarge extends Error {}
class Stalled extends Error {}

/**
 * Counts the body as it passes and stops it past the limit, whatever Content-Length claimed; and stops it when no
 * byte came for `idleMs`. An idle limit rather than a total: a large recording over a slow link takes as long as
 * it takes, while a client that went away is let go.
 */
function guard(maxBytes: number, idleMs: number): Transform {
  let seen = 0;
  const timer = setTimeout(() => stream.destroy(new Stalled()), idleMs);
  const stream: Transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      timer.refresh();
      done(seen > maxBytes ? new TooLarge() : null, chunk);
    },
    flush(done) {
      clearTimeout(timer);
      done();
    },
    destroy(err, done) {
      clearTimeout(timer);
      done(err);
    },
  });
  return stream;
}

export const DEFAULT_UPLOAD_IDLE_MS = 30_000;

export interface UploadOptions {
  allowChanges: boolean;
  maxBytes: number;
  /** The upload is dropped when no byte came for this long (ms). */
  idleMs: number;
  /** Where a failure that is not the recording's own goes (the uploader gets its id). */
  log?: ErrorLog;
}

/** An upload as either transport hands it over: serve mode's HTTP request, the desktop's app:// request. */
export interface UploadRequest {
  method: string;
  contentType: string;
  contentLength: number;
  name: string;
  body: Readable;
}

export interface UploadReply {
  status: number;
  headers: Record<string, string>;
  /** A refusal's JSON, or the NDJSON stream of progress and then the runs or the error. */
  body: string | Readable;
}

const refusal = (status: number, code: string, message: string, extra: Record<string, string> = {}): UploadReply => ({
  status,
  headers: { ...securityHeaders(), 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...extra },
  body: `${escapedJson({ error: { code, message } })}\n`,
});

/**
 * An error's words without the server's paths, which are none of a viewer's business: the temporary file is named
 * as the viewer named the upload, and whatever else lay under the temporary directory goes unnamed.
 */
function withoutPaths(err: unknown, file: string, name: string): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split(file).join(name).split(dirname(file)).join('(upload)').split(tmpdir()).join('(temporary directory)');
}

/**
 * The upload itself, for both transports: the checks, the body streamed to a temporary file, then the answer
 * streamed as the file is read (the file is removed once read).
 */
export async function receiveRecording(engine: EngineHost, upload: UploadRequest, options: UploadOptions): Promise<UploadReply> {
  const fail = (status: number, code: string, message: string): UploadReply => refusal(status, code, message);
  if (upload.method !== 'POST') return refusal(405, 'BAD_REQUEST', 'send the recording with POST', { Allow: 'POST' });
  if (!options.allowChanges) return fail(403, 'FORBIDDEN', 'importing a recording changes the server: viewers may not (start ndbtop serve with --allow-changes)');
  const recordings = engine.recordings;
  if (!recordings) return fail(501, 'UNSUPPORTED', 'this server keeps no imported recordings');
  if (!/^application\/octet-stream\b/i.test(upload.contentType)) return fail(415, 'BAD_REQUEST', 'send the recording as Content-Type: application/octet-stream');
  const { name } = upload;
  if (name.length < 1 || name.length > 300) return fail(400, 'BAD_REQUEST', 'name the recording (?name=FILE, 1 to 300 characters)');
  const tooLarge = `the recording is over ${sizeText(options.maxBytes)}, the limit of this server; summarise it with \`ndbtop report FILE\` where the file is`;
  if (upload.contentLength > options.maxBytes) return fail(413, 'TOO_LARGE', tooLarge);

  let dir: string;
  try {
    dir = await mkdtemp(join(tmpdir(), 'ndbtop-upload-'));
  } catch (err) {
    const why = (err as { code?: unknown }).code;
    return fail(500, 'UNAVAILABLE', `the server cannot store the upload${typeof why === 'string' ? ` (${why})` : ''}`);
  }
  const file = join(dir, 'recording');
  try {
    await pipeline(upload.body, guard(options.maxBytes, options.idleMs), createWriteStream(file));
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    if (err instanceof TooLarge) return fail(413, 'TOO_LARGE', tooLarge);
    if (err instanceof Stalled) return fail(408, 'TIMEOUT', `the upload stalled: no bytes for ${options.idleMs / 1000} s`);
    return fail(400, 'BAD_REQUEST', `the upload broke off: ${withoutPaths(err, file, name)}`);
  }
  const out = new PassThrough();
  const line = (value: unknown): boolean => out.write(`${escapedJson(value)}\n`);
  void (async () => {
    try {
      line({ runs: await recordings.importFile(file, name, (done, total) => line({ progress: { done, total } })) });
    } catch (err) {
      // A recording's own fault is the uploader's to read; anything else (a bug, the disk) is the server's.
      const shown = answerable(err);
      line({ error: shown ? { code: shown.code, message: withoutPaths(err, file, name) } : toWireError(err, options.log) });
    } finally {
      await rm(dir, { recursive: true, force: true });
      out.end();
    }
  })();
  return { status: 200, headers: { ...securityHeaders(), 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store' }, body: out };
}

/** Serve mode's route: the HTTP request handed to receiveRecording, its answer written back. */
export async function handleRecordingUpload(engine: EngineHost, req: IncomingMessage, res: ServerResponse, url: URL, options: UploadOptions): Promise<void> {
  // The body has its own idle limit (guard), and reading a large file may write nothing for a while: the server's
  // socket idle timeout would cut the answer off, so this connection goes without it.
  req.socket.setTimeout(0);
  const upload = { method: req.method ?? '', contentType: req.headers['content-type'] ?? '', contentLength: Number(req.headers['content-length'] ?? 0), name: url.searchParams.get('name') ?? '', body: req };
  const reply = await receiveRecording(engine, upload, options);
  if (typeof reply.body === 'string') {
    // A refusal may come before the body was read: the connection is closed rather than drained.
    res.writeHead(reply.status, { ...reply.headers, 'Content-Length': Buffer.byteLength(reply.body), Connection: 'close' });
    return void res.end(reply.body);
  }
  res.writeHead(reply.status, reply.headers);
  await pipeline(reply.body, res);
}
