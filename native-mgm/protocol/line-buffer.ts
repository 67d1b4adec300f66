import { ProtocolError } from '../errors.js';

/**
 * Accumulates socket chunks and hands out complete LF-terminated lines, tolerating a split at any byte.
 * Bounded: a line longer than `maxLineBytes` is a protocol error, so a peer that never sends LF cannot make
 * us buffer without limit.
 *
 * Bytes are decoded as latin1, one char per byte: the protocol is ASCII, string offsets then equal byte
 * offsets (the config body is counted in bytes), and a chunk is decoded once instead of once per line.
 */
export class LineBuffer {
  /** Decoded bytes; the current line and everything not yet consumed are in it. */
  text = '';
  lineStart = 0;
  lineEnd = 0;
  private start = 0;
  /** Where the LF search resumes, so a long line arriving byte by byte is scanned once, not once per byte. */
  private scanFrom = 0;

  constructor(private readonly maxLineBytes: number) {}

  get buffered(): number {
    return this.text.length - this.start;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    const decoded = Buffer.isBuffer(chunk) ? chunk.toString('latin1') : Buffer.from(chunk).toString('latin1');
    this.text = this.start === this.text.length ? decoded : this.text.slice(this.start) + decoded;
    this.scanFrom -= this.start;
    this.start = 0;
  }

  /**
   * Steps to the next complete line, or returns false until one has arrived. The line is `text` from
   * `lineStart` to `lineEnd` (its LF excluded, and a CR before it, as the server's reader drops it); it is
   * cut into a string only by callers that need one, and stays valid until the next `push`.
   */
  advance(): boolean {
    const lf = this.text.indexOf('\n', Math.max(this.scanFrom, this.start));
    if (lf < 0) {
      this.scanFrom = this.text.length;
      if (this.buffered > this.maxLineBytes) {
        throw new ProtocolError('line too long', `more than ${this.maxLineBytes} bytes without a line feed`);
      }
      return false;
    }
    if (lf - this.start > this.maxLineBytes) {
      throw new ProtocolError('line too long', `${lf - this.start} bytes`);
    }
    this.lineStart = this.start;
    this.lineEnd = lf > this.start && this.text.charCodeAt(lf - 1) === 13 ? lf - 1 : lf;
    this.start = lf + 1;
    this.scanFrom = this.start;
    return true;
  }

  /** The current line as a string. */
  line(): string {
    return this.text.slice(this.lineStart, this.lineEnd);
  }

  /** Whether the current line is exactly `s`, without cutting it out. */
  lineIs(s: string): boolean {
    return this.lineEnd - this.lineStart === s.length && this.text.startsWith(s, this.lineStart);
  }

  /** Exactly `n` raw bytes as latin1 text, or null until that many have arrived (the `get config` body). */
  takeBytes(n: number): string | null {
    if (this.buffered < n) return null;
    const out = this.text.slice(this.start, this.start + n);
    this.start += n;
    this.scanFrom = this.start;
    return out;
  }
}
