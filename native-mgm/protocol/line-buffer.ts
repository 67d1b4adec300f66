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
  private text = '';
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

  /** The next complete line without its LF (a CR before it is dropped, as the server's reader does), or null. */
  nextLine(): string | null {
    const lf = this.text.indexOf('\n', Math.max(this.scanFrom, this.start));
    if (lf < 0) {
      this.scanFrom = this.text.length;
      if (this.buffered > this.maxLineBytes) {
        throw new ProtocolError('line too long', `more than ${this.maxLineBytes} bytes without a line feed`);
      }
      return null;
    }
    if (lf - this.start > this.maxLineBytes) {
      throw new ProtocolError('line too long', `${lf - this.start} bytes`);
    }
    const end = lf > this.start && this.text.charCodeAt(lf - 1) === 13 ? lf - 1 : lf;
    const line = this.text.slice(this.start, end);
    this.start = lf + 1;
    this.scanFrom = this.start;
    return line;
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
