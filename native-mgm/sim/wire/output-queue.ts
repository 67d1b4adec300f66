import type { Socket } from 'node:net';
import type { Prng } from '../state/prng.js';

/**
 * How replies and records reach the socket: `whole` writes each reply in one write like the server; `bytewise`
 * writes one byte per write and `random` pieces of 1..64 bytes (more for long messages), each write waiting for the previous one, so a
 * client's reassembly of split replies gets exercised.
 */
export type WriteMode = 'whole' | 'bytewise' | 'random';

const RANDOM_MAX_PIECE = 64;
/**
 * At most this many pieces a message in `random` mode: each costs a turn of both event loops, and a 255-node status
 * reply (~90 KB) in pieces of up to 64 bytes took ~2,800 turns, over a minute on a loaded machine. Larger pieces
 * still split it at random points hundreds of times; `bytewise` covers every boundary of the smaller replies.
 */
const RANDOM_MAX_PIECES = 256;

export class OutputQueue {
  private pieces: Buffer[] = [];
  /** Next piece to write; an index, since shifting a 60,000-piece byte-wise reply is quadratic. */
  private next = 0;
  private pumping = false;
  private waiters: Array<() => void> = [];
  private queuedBytes = 0;
  /** When each write the kernel has not yet accepted was made, oldest first (write callbacks come in order). */
  private unflushed: number[] = [];
  private flushed = 0;

  constructor(
    private readonly socket: Socket,
    private readonly mode: WriteMode,
    private readonly prng: Prng,
  ) {}

  /** Bytes handed over but not yet accepted by the kernel; a client that stops reading makes this grow. */
  get backlog(): number {
    return this.queuedBytes + this.socket.writableLength;
  }

  /** How long the oldest write has waited for the kernel to take it: a peer that stops reading makes it grow. */
  stalledMs(now = performance.now()): number {
    const oldest = this.unflushed[this.flushed];
    return oldest === undefined ? 0 : now - oldest;
  }

  /** Text goes out as UTF-8; bytes as they are. */
  send(text: string | Buffer): void {
    if (this.socket.destroyed || text.length === 0) return;
    const buf = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    if (this.mode === 'whole') {
      this.write(buf, () => undefined);
      return;
    }
    const maxPiece = Math.max(RANDOM_MAX_PIECE, Math.ceil((2 * buf.length) / RANDOM_MAX_PIECES));
    for (let at = 0; at < buf.length; ) {
      const size = this.mode === 'bytewise' ? 1 : 1 + Math.floor(this.prng() * maxPiece);
      this.pieces.push(buf.subarray(at, at + size));
      at += size;
    }
    this.queuedBytes += buf.length;
    if (!this.pumping) this.pump();
  }

  /** Resolves when everything sent so far has been written. */
  drained(): Promise<void> {
    if (!this.pumping || this.socket.destroyed) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private pump(): void {
    const piece = this.pieces[this.next++];
    if (!piece || this.socket.destroyed) {
      this.pumping = false;
      this.pieces = [];
      this.next = 0;
      this.queuedBytes = 0;
      const waiters = this.waiters;
      this.waiters = [];
      for (const w of waiters) w();
      return;
    }
    this.pumping = true;
    this.queuedBytes -= piece.length;
    // Yielding a turn between pieces lets the peer read each piece on its own.
    this.write(piece, () => setImmediate(() => this.pump()));
  }

  private write(buf: Buffer, done: () => void): void {
    this.unflushed.push(performance.now());
    this.socket.write(buf, () => {
      this.flushed += 1;
      if (this.flushed === this.unflushed.length) {
        this.unflushed = [];
        this.flushed = 0;
      }
      done();
    });
  }
}
