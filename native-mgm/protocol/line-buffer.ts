import { ProtocolError } from '../errors.js';
import { rangeIs } from './kv.js';

/**
 * Accumulates socket chunks and hands out complete LF-terminated lines, tolerating a split at any byte.
 * Bounded: a line longer than `maxLineBytes` is a protocol error, so a peer that never sends LF cannot make
 * us buffer without limit.
 *
 * Lines stay bytes where they arrived: parsers read them in place (a byte load is a few instructions, a
 * character of a string several times that) and cut a string (UTF-8) only for what they keep as text; every
 * count and limit is in bytes.
 */
export class LineBuffer {
  /** The current line and everything not yet consumed. */
  bytes: Buffer = Buffer.alloc(0);
  lineStart = 0;
  lineEnd = 0;
  private start = 0;
  /** Where the LF search resumes, so a long line arriving byte by byte is scanned once, not once per byte. */
  private scanFrom = 0;

  constructor(private readonly maxLineBytes: number) {}

  get buffered(): number {
    return this.bytes.length - this.start;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    // Socket chunks are never written to again, so a chunk with no leftover before it is kept as it is.
    this.bytes = this.start === this.bytes.length ? b : Buffer.concat([this.bytes.subarray(this.start), b]);
    this.scanFrom -= this.start;
    this.start = 0;
  }

  /**
   * Steps to the next complete line, or returns false until one has arrived. The line is `bytes` from
   * `lineStart` to `lineEnd` (its LF excluded, and a CR before it, as the server's reader drops it); it
   * stays valid until the next `push`.
   */
  advance(): boolean {
    const bytes = this.bytes;
    const length = bytes.length;
    let lf = Math.max(this.scanFrom, this.start);
    // A loop, not indexOf: lines are a few dozen bytes, shorter than the cost of a call into C++.
    while (lf < length && bytes[lf] !== LF) lf++;
    if (lf === length) {
      this.scanFrom = length;
      if (this.buffered > this.maxLineBytes) {
        throw new ProtocolError('line too long', `more than ${this.maxLineBytes} bytes without a line feed`);
      }
      return false;
    }
    if (lf - this.start > this.maxLineBytes) {
      throw new ProtocolError('line too long', `${lf - this.start} bytes`);
    }
    this.lineStart = this.start;
    this.lineEnd = lf > this.start && bytes[lf - 1] === CR ? lf - 1 : lf;
    this.start = lf + 1;
    this.scanFrom = this.start;
    return true;
  }

  /** Where the bytes not yet handed out begin in `bytes`. */
  get next(): number {
    return this.start;
  }

  /** Marks `bytes` up to `pos` (just past an LF) as read, for callers that read whole lines in place. */
  skipTo(pos: number): void {
    this.start = pos;
    this.scanFrom = pos;
  }

  /** The current line as text (UTF-8, see kv.ts `text`). */
  line(): string {
    return this.bytes.toString('utf8', this.lineStart, this.lineEnd);
  }

  /** Whether the current line is exactly `word` (ASCII), without cutting it out. */
  lineIs(word: Uint8Array): boolean {
    return rangeIs(this.bytes, this.lineStart, this.lineEnd, word);
  }

  /**
   * Exactly `n` bytes, or null until that many have arrived (the `get config` body: `Content-Length` counts bytes).
   * The body is base64, so ASCII; latin1 keeps one char per byte, so a stray non-ASCII byte fails its decoding.
   */
  takeBytes(n: number): string | null {
    if (this.buffered < n) return null;
    const out = this.bytes.toString('latin1', this.start, this.start + n);
    this.start += n;
    this.scanFrom = this.start;
    return out;
  }
}

const LF = 10;
const CR = 13;
