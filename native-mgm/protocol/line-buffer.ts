import { ProtocolError } from '../errors.js';

const LF = 0x0a;
const CR = 0x0d;

/**
 * Accumulates socket chunks and hands out complete LF-terminated lines, tolerating a split at any byte.
 * Bounded: a line longer than `maxLineBytes` is a protocol error, so a peer that never sends LF cannot make
 * us buffer without limit.
 */
export class LineBuffer {
  private buf: Buffer = Buffer.alloc(0);
  private start = 0;
  /** Where the LF search resumes, so a long line arriving byte by byte is scanned once, not once per byte. */
  private scanFrom = 0;

  constructor(private readonly maxLineBytes: number) {}

  get buffered(): number {
    return this.buf.length - this.start;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    const rest = this.buf.subarray(this.start);
    this.scanFrom -= this.start;
    this.start = 0;
    this.buf = rest.length === 0 ? Buffer.from(chunk) : Buffer.concat([rest, chunk]);
  }

  /** The next complete line without its LF (a CR before it is dropped, as the server's reader does), or null. */
  nextLine(): string | null {
    const lf = this.buf.indexOf(LF, Math.max(this.scanFrom, this.start));
    if (lf < 0) {
      this.scanFrom = this.buf.length;
      if (this.buffered > this.maxLineBytes) {
        throw new ProtocolError('line too long', `more than ${this.maxLineBytes} bytes without a line feed`);
      }
      return null;
    }
    if (lf - this.start > this.maxLineBytes) {
      throw new ProtocolError('line too long', `${lf - this.start} bytes`);
    }
    const end = lf > this.start && this.buf[lf - 1] === CR ? lf - 1 : lf;
    const line = this.buf.toString('utf8', this.start, end);
    this.start = lf + 1;
    this.scanFrom = this.start;
    return line;
  }

  /** Exactly `n` raw bytes, or null until that many have arrived (for the `get config` body). */
  takeBytes(n: number): Buffer | null {
    if (this.buffered < n) return null;
    const out = Buffer.from(this.buf.subarray(this.start, this.start + n));
    this.start += n;
    this.scanFrom = this.start;
    return out;
  }
}
