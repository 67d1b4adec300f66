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

/**
 * A compressed recording inflates to at most this many times the compressed bytes read so far, once past
 * INFLATE_FLOOR_BYTES. ndbtop's recordings inflate 8-10 times (a whole file recompressed with gzip -9, under 20):
 * a file past 200 is a decompression bomb (a megabyte of newlines is a gigabyte), refused after a sixth of a
 * megabyte (well under a second of work, even in lines that each fail to parse) rather than played for minutes.
 * The floor lets a small file of any ratio through.
 */
export const MAX_INFLATE_RATIO = 200;
export const INFLATE_FLOOR_BYTES = 128 * 1024;
/** Inflated bytes between two checks of the rule: what a bomb gets past it is the floor and one of these. */
const INFLATE_CHUNK_BYTES = 32 * 1024;

export class InflateRatioError extends Error {
  readonly code = 'BAD_RECORDING';
  constructor(inflated: number, compressed: number) {
    super(`refused: the compressed recording inflates more than ${MAX_INFLATE_RATIO} times (${inflated} bytes out of ${compressed}), which no recording does (a decompression bomb?)`);
  }
}

/** Throws InflateRatioError when `inflated` bytes out of `compressed` break the rule above. */
export function checkInflateRatio(inflated: number, compressed: number): void {
  if (inflated > INFLATE_FLOOR_BYTES && inflated > MAX_INFLATE_RATIO * compressed) throw new InflateRatioError(inflated, compressed);
}
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
  const gunzip = createGunzip({ chunkSize: Math.min(options.chunkBytes ?? CHUNK_BYTES, INFLATE_CHUNK_BYTES) });
  input.on('data', progress);
  input.on('error', (err) => gunzip.destroy(err));
  input.pipe(gunzip);
  let inflated = 0;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      inflated += chunk.length;
      // bytesWritten: the compressed bytes zlib consumed, not those read ahead from the file.
      checkInflateRatio(inflated, gunzip.bytesWritten);
      yield chunk;
    }
  } catch (err) {
    if (err instanceof InflateRatioError) throw err;
    end.error = `compressed data ends at byte ${from + input.bytesRead} of ${total}: ${err instanceof Error ? err.message : String(err)} (a write cut short, e.g. by a kill)`;
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}
