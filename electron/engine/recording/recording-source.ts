import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { isGzip } from './recording-member.js';

/** Bytes of the file read so far, of its size (compressed bytes for a compressed file). */
export type Progress = (done: number, total: number) => void;

export interface SourceOptions {
  /** Start at this byte offset: a member's start in a compressed file, a line's start in a plain one. */
  from?: number;
  onProgress?: Progress;
  /** Read size; small values force many partial reads (tests). */
  chunkBytes?: number;
}

export interface SourceEnd {
  /** Why the bytes ended before the file did (a member torn by a kill, bytes that are not gzip); null: whole. */
  error: string | null;
}

const CHUNK_BYTES = 256 * 1024;
// Every chunk: a replay at recorded speed reads slowly, and its bar should move; consumers throttle their own drawing.
const PROGRESS_EVERY_BYTES = CHUNK_BYTES;

export async function isCompressed(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return isGzip(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/**
 * The text bytes of a recording, decompressed when the file is gzip (told by its magic bytes, never its name),
 * as they are read: memory is a few chunks whatever the file's size. A compressed file that stops inside a
 * member (killed while writing) yields everything up to the tear; `end.error` then says what was lost.
 */
export async function* recordingBytes(file: string, options: SourceOptions, end: SourceEnd): AsyncGenerator<Buffer> {
  const compressed = await isCompressed(file);
  const from = options.from ?? 0;
  const input = createReadStream(file, { start: from, highWaterMark: options.chunkBytes ?? CHUNK_BYTES });
  const total = (await stat(file)).size;
  let reported = from;
  const progress = (): void => {
    const done = from + input.bytesRead;
    if (options.onProgress && (done - reported >= PROGRESS_EVERY_BYTES || done >= total)) {
      reported = done;
      options.onProgress(done, total);
    }
  };
  if (!compressed) {
    try {
      for await (const chunk of input as AsyncIterable<Buffer>) {
        progress();
        yield chunk;
      }
    } finally {
      input.destroy();
    }
    return;
  }
  const gunzip = createGunzip({ chunkSize: options.chunkBytes ?? CHUNK_BYTES });
  input.on('data', progress);
  input.on('error', (err) => gunzip.destroy(err));
  input.pipe(gunzip);
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) yield chunk;
  } catch (err) {
    end.error = `compressed data ends at byte ${from + input.bytesRead} of ${total}: ${err instanceof Error ? err.message : String(err)} (a write cut short, e.g. by a kill)`;
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}
