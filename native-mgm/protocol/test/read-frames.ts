import type { Frame, ReaderLimits, ReplyShape } from '../frames.js';
import { StreamReader } from '../stream-reader.js';

/** Feeds `bytes` to a fresh reader in the given chunk sizes (cycled) and returns every frame it emitted. */
export function readFrames(
  bytes: string | Buffer,
  shapes: ReplyShape[],
  chunkSizes: readonly number[] = [Number.MAX_SAFE_INTEGER],
  limits: Partial<ReaderLimits> = {},
): Frame[] {
  const buf = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  const reader = new StreamReader(limits);
  for (const s of shapes) reader.expect(s);
  const frames: Frame[] = [];
  let offset = 0;
  for (let i = 0; offset < buf.length; i++) {
    const size = Math.max(1, chunkSizes[i % chunkSizes.length] ?? 1);
    reader.feed(buf.subarray(offset, offset + size), (f) => frames.push(f));
    offset += size;
  }
  return frames;
}

/** Feeds the bytes split once at `at`. */
export function readSplitAt(bytes: string, shapes: ReplyShape[], at: number): Frame[] {
  const buf = Buffer.from(bytes, 'utf8');
  const reader = new StreamReader();
  for (const s of shapes) reader.expect(s);
  const frames: Frame[] = [];
  reader.feed(buf.subarray(0, at), (f) => frames.push(f));
  reader.feed(buf.subarray(at), (f) => frames.push(f));
  return frames;
}
