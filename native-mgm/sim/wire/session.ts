import type { X509Certificate } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Prng } from '../prng.js';
import type { LevelMap } from './event-filter.js';
import { OutputQueue, type WriteMode } from './output-queue.js';
import { formatParserError, MAX_LINE_CHARS, RequestParser, type Args } from './request-parser.js';
import type { CommandSpec } from './command-table.js';

/** How long a closing session waits for its last reply to be flushed. */
const CLOSE_FLUSH_TIMEOUT_MS = 1000;

/** What a command handler may do to its own session. */
export interface SessionHandle {
  readonly id: number;
  /** Packed version from `set clientversion`, 0 when not set. */
  clientVersion: number;
  /** After this command's reply, the socket becomes an event stream and is never read again. */
  becomeListener(levels: LevelMap, parsable: boolean): void;
  /** After this command's reply (if any), close the connection. */
  closeAfterReply(): void;
  /** Whether this session runs over TLS, and with which client certificate. */
  readonly tls: boolean;
  readonly peerCert: X509Certificate | null;
  /** After this command's reply, become the TLS server on this connection (spec §9). */
  startTlsAfterReply(): void;
}

export type Dispatch = (session: SessionHandle, command: CommandSpec, args: Args) => Promise<string> | string;

export interface SessionHooks {
  dispatch: Dispatch;
  toListener(socket: Socket, out: OutputQueue, levels: LevelMap, parsable: boolean): void;
  ended(session: Session): void;
  /** Runs the server side of the TLS handshake on the raw socket; rejects when it fails. */
  acceptTls?(raw: Socket): Promise<{ socket: Socket; peer: X509Certificate | null }>;
}

/** Marks where an over-long line stood among the queued lines. */
const OVERLONG = Symbol('overlong line');

/**
 * One accepted connection: reads lines (CRLF accepted, over-long line = read error and the session ends
 * without a reply), runs requests strictly one after another, and writes each reply in one piece.
 */
export class Session implements SessionHandle {
  clientVersion = 0;
  tls = false;
  peerCert: X509Certificate | null = null;
  private readonly parser = new RequestParser();
  private out: OutputQueue;
  private upgradePending = false;
  private readonly lines: Array<string | typeof OVERLONG> = [];
  private buffered = '';
  private busy = false;
  private listenAs: { levels: LevelMap; parsable: boolean } | null = null;
  private closing = false;
  /** An over-long line was read: nothing after it is parsed. */
  private readError = false;

  constructor(
    readonly id: number,
    private socket: Socket,
    private readonly writeMode: WriteMode,
    private readonly prng: Prng,
    private readonly hooks: SessionHooks,
  ) {
    this.out = new OutputQueue(socket, writeMode, prng);
    socket.setNoDelay(true);
    socket.on('data', this.onData);
    socket.on('error', () => socket.destroy());
    socket.on('close', () => hooks.ended(this));
  }

  /** Whether the parser holds a half-read request (for `get session`). */
  get parsing(): boolean {
    return this.parser.pending !== null;
  }

  becomeListener(levels: LevelMap, parsable: boolean): void {
    this.listenAs = { levels, parsable };
  }

  closeAfterReply(): void {
    this.closing = true;
  }

  startTlsAfterReply(): void {
    this.upgradePending = true;
  }

  /** The peer's address as the server prints it (IPv4-mapped IPv6 as plain IPv4). */
  get address(): string {
    return (this.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
  }

  private readonly onData = (chunk: Buffer): void => this.receive(chunk);

  /**
   * From here on every byte goes through TLS: the reply already sent went out in clear text first, then the
   * handshake runs on the same connection. A failed handshake ends the session, never a fall-back to clear text.
   */
  private async upgrade(): Promise<void> {
    this.upgradePending = false;
    const accept = this.hooks.acceptTls;
    if (!accept) return;
    await this.out.drained();
    const raw = this.socket;
    raw.off('data', this.onData);
    try {
      const { socket, peer } = await accept(raw);
      this.socket = socket;
      this.out = new OutputQueue(socket, this.writeMode, this.prng);
      this.tls = true;
      this.peerCert = peer;
      socket.on('data', this.onData);
      socket.on('error', () => socket.destroy());
    } catch {
      this.lines.length = 0;
      this.closing = true;
      raw.destroy();
    }
  }

  /** Ends the session once what was already sent has been written (or a client that stopped reading gave up). */
  async close(): Promise<void> {
    this.closing = true;
    await this.out.drained();
    if (this.socket.destroyed) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, CLOSE_FLUSH_TIMEOUT_MS);
      this.socket.end(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    if (this.listenAs || this.closing || this.readError) return;
    this.buffered += chunk.toString('latin1');
    for (let nl = this.buffered.indexOf('\n'); nl >= 0; nl = this.buffered.indexOf('\n')) {
      const line = this.buffered.slice(0, nl).replace(/\r$/, '');
      this.buffered = this.buffered.slice(nl + 1);
      if (line.length > MAX_LINE_CHARS) return this.overlong();
      this.lines.push(line);
    }
    // A line that cannot fit the server's buffer is a read error even before its LF arrives.
    if (this.buffered.replace(/\r$/, '').length > MAX_LINE_CHARS) return this.overlong();
    void this.run();
  }

  /** Read through a call: the loop condition's narrowing of the field would hide a handler's change. */
  private listening(): { levels: LevelMap; parsable: boolean } | null {
    return this.listenAs;
  }

  /**
   * The server reads line by line, so the requests before the over-long line are answered first; the read
   * error then ends the session without a reply (spec §1.6).
   */
  private overlong(): void {
    this.readError = true;
    this.buffered = '';
    this.lines.push(OVERLONG);
    void this.run();
  }

  private async run(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      for (let line = this.lines.shift(); line !== undefined && !this.closing && !this.listenAs; line = this.lines.shift()) {
        if (line === OVERLONG) {
          this.lines.length = 0;
          void this.close();
          return;
        }
        const parsed = this.parser.feed(Buffer.from(line, 'latin1').toString('utf8'));
        if (parsed === null) continue;
        const text =
          parsed.kind === 'error'
            ? formatParserError(parsed.message, parsed.token)
            : await this.hooks.dispatch(this, parsed.command, parsed.args);
        if (this.socket.destroyed) return;
        this.out.send(text);
        if (this.upgradePending) await this.upgrade();
        const listen = this.listening();
        if (listen) this.hooks.toListener(this.socket, this.out, listen.levels, listen.parsable);
        if (this.closing) void this.close();
      }
    } finally {
      this.busy = false;
    }
  }
}
