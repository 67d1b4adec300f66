import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { EngineHost } from '../engine/engine-host.js';
import { securityHeaders } from './security-headers.js';

/**
 * `POST /api/recordings?name=FILE` with the recording's bytes (plain or compressed) as
 * `Content-Type: application/octet-stream`: the runs of a recording imported for comparison. The WebSocket
 * refuses messages over 1 MiB; this streams the body to a temporary file (never holding it in memory), then
 * reads the file as `ndbtop report` does. The answer is NDJSON as it goes: `{"progress":{"done","total"}}`
 * lines while the file is read, then `{"runs":[…]}` or `{"error":{"code","message"}}`. It changes what every
 * viewer sees, so it is gated like the `importRecording` request (`--allow-changes`); the token, Host and
 * Origin checks are the server's, and a browser's cross-site form cannot send this content type.
 */
export const RECORDINGS_PATH = '/api/recordings';
export const DEFAULT_MAX_UPLOAD_BYTES = 4 * 1024 ** 3;

const sizeText = (bytes: number): string => (bytes >= 1024 ** 3 ? `${+(bytes / 1024 ** 3).toFixed(2)} GiB` : `${+(bytes / 1024 ** 2).toFixed(2)} MiB`);

function fail(res: ServerResponse, status: number, code: string, message: string): void {
  const body = `${JSON.stringify({ error: { code, message } })}\n`;
  if (res.headersSent) return void res.end(body);
  res.writeHead(status, { ...securityHeaders('serve'), 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store', Connection: 'close' });
  res.end(body);
}

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
}

export async function handleRecordingUpload(engine: EngineHost, req: IncomingMessage, res: ServerResponse, url: URL, options: UploadOptions): Promise<void> {
  if (req.method !== 'POST') {
    res.writeHead(405, { ...securityHeaders('serve'), Allow: 'POST', 'Content-Type': 'text/plain; charset=utf-8' });
    return void res.end('Method Not Allowed\n');
  }
  if (!options.allowChanges) return fail(res, 403, 'FORBIDDEN', 'importing a recording changes the server: viewers may not (start ndbtop serve with --allow-changes)');
  if (!engine.recordings) return fail(res, 501, 'UNSUPPORTED', 'this server keeps no imported recordings');
  if (!/^application\/octet-stream\b/i.test(req.headers['content-type'] ?? '')) return fail(res, 415, 'BAD_REQUEST', 'send the recording as Content-Type: application/octet-stream');
  const name = url.searchParams.get('name') ?? '';
  if (name.length < 1 || name.length > 300) return fail(res, 400, 'BAD_REQUEST', 'name the recording (?name=FILE, 1 to 300 characters)');
  const tooLarge = `the recording is over ${sizeText(options.maxBytes)}, the limit of this server; summarise it with \`ndbtop report FILE\` where the file is`;
  if (Number(req.headers['content-length'] ?? 0) > options.maxBytes) return fail(res, 413, 'TOO_LARGE', tooLarge);

  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-upload-'));
  try {
    const file = join(dir, 'recording');
    try {
      await pipeline(req, guard(options.maxBytes, options.idleMs), createWriteStream(file));
    } catch (err) {
      if (err instanceof TooLarge) return fail(res, 413, 'TOO_LARGE', tooLarge);
      if (err instanceof Stalled) return fail(res, 408, 'TIMEOUT', `the upload stalled: no bytes for ${options.idleMs / 1000} s`);
      return fail(res, 400, 'BAD_REQUEST', `the upload broke off: ${err instanceof Error ? err.message : String(err)}`);
    }
    res.writeHead(200, { ...securityHeaders('serve'), 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store' });
    const line = (value: unknown): boolean => res.write(`${JSON.stringify(value)}\n`);
    try {
      const runs = await engine.recordings.importFile(file, name, (done, total) => line({ progress: { done, total } }));
      line({ runs });
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      line({ error: { code: typeof code === 'string' ? code : 'BAD_RECORDING', message: err instanceof Error ? err.message : String(err) } });
    }
    res.end();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
