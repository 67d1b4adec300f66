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
  /** The reply refusing this command on this session (the server checks it before the command reads anything more), or null. */
  refuse(session: SessionHandle, command: CommandSpec): string | null;
  dispatch: Dispatch;
  toListener(socket: Socket, out: OutputQueue, levels: LevelMap, parsable: boolean): void;
  ended(session: Session): void;
  /** Runs the server side of the TLS handshake on the raw socket; rejects when it fails. */
  acceptTls?(raw: Socket): Promise<{ socket: Socket; peer: X509Certificate | null }>;
}

/**
 * One accepted connection. Like the server it reads the socket only when it wants the next line (or a command's
 * trailing bulk data): requests run strictly one after another, each reply is written in one piece, CRLF is
 * accepted, and an over-long line is a read error that ends the session without a reply (spec §1.6).
 */
export class Session implements SessionHandle {
  clientVersion = 0;
  tls = false;
  peerCert: X509Certificate | null = null;
  private readonly parser: RequestParser;
  private out: OutputQueue;
  private upgradePending = false;
  /** Bytes received and not read yet, one char per byte. */
  private input = '';
  private wake: (() => void) | null = null;
  private eof = false;
  private listenAs: { levels: LevelMap; parsable: boolean } | null = null;
  private closing = false;

  constructor(
    readonly id: number,
    private socket: Socket,
    private readonly writeMode: WriteMode,
    private readonly prng: Prng,
    /** Packed version of the server, whose command table the parser reads. */
    serverVersion: number,
    private readonly hooks: SessionHooks,
  ) {
    this.parser = new RequestParser(serverVersion);
    this.out = new OutputQueue(socket, writeMode, prng);
    socket.setNoDelay(true);
    socket.on('data', this.onData);
    socket.on('error', () => socket.destroy());
    socket.on('end', this.onEnd);
    socket.on('close', () => {
      this.onEnd();
      hooks.ended(this);
    });
    void this.run();
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

  private readonly onData = (chunk: Buffer): void => {
    if (this.listenAs || this.closing) return;
    this.input += chunk.toString('latin1');
    this.notify();
  };

  private readonly onEnd = (): void => {
    this.eof = true;
    this.notify();
  };

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** Resolves when more bytes arrived, the peer closed or the session is closing. */
  private more(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  /**
   * The next line without its LF (and a CR before it), or null at EOF or on a read error: a line longer than
   * `limit` fails as soon as that many bytes are waiting, whether or not its LF has come.
   */
  private async line(limit = MAX_LINE_CHARS): Promise<string | null> {
    for (;;) {
      const nl = this.input.indexOf('\n');
      const text = (nl < 0 ? this.input : this.input.slice(0, nl)).replace(/\r$/, '');
      if (text.length > limit) return null;
      if (nl >= 0) {
        this.input = this.input.slice(nl + 1);
        return text;
      }
      if (this.eof || this.closing) return null;
      await this.more();
    }
  }

  /** Exactly `count` bytes, or null at EOF. */
  private async bytes(count: number): Promise<string | null> {
    while (this.input.length < count) {
      if (this.eof || this.closing) return null;
      await this.more();
    }
    const out = this.input.slice(0, count);
    this.input = this.input.slice(count);
    return out;
  }

  /** Reads and drops what the command reads after its request (spec §4.22); false at EOF. */
  private async skipTrailer(command: CommandSpec, args: Args): Promise<boolean> {
    const trailer = command.trailer?.(args) ?? null;
    if (trailer === null) return true;
    if (trailer.kind === 'bytes') return (await this.bytes(trailer.count)) !== null;
    for (;;) {
      // The server reads bulk lines in pieces, so their length is not limited.
      const line = await this.line(Infinity);
      if (line === null) return false;
      if (line === '') return true;
    }
  }

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
      socket.on('end', this.onEnd);
      socket.on('error', () => socket.destroy());
    } catch {
      this.input = '';
      this.closing = true;
      raw.destroy();
    }
  }

  /** Ends the session once what was already sent has been written (or a client that stopped reading gave up). */
  async close(): Promise<void> {
    this.closing = true;
    this.notify();
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

  /** Read through a call: the loop condition's narrowing of the field would hide a handler's change. */
  private listening(): { levels: LevelMap; parsable: boolean } | null {
    return this.listenAs;
  }

  /**
   * The answer to one line (one char per byte): null while a request is still being read, or when nothing is
   * to be sent. A parser error echoes the bytes it was sent, whatever they are, as the server's does.
   */
  private async answer(line: string): Promise<string | Buffer | null> {
    const parsed = this.parser.feed(line);
    if (parsed === null) return null;
    if (parsed.kind === 'error') return Buffer.from(formatParserError(parsed.message, parsed.token), 'latin1');
    const refused = this.hooks.refuse(this, parsed.command);
    if (refused !== null) return refused;
    if (!(await this.skipTrailer(parsed.command, parsed.args))) return null;
    return this.hooks.dispatch(this, parsed.command, parsed.args);
  }

  /** The session's one reader: runs until EOF, a read error, the end of the session or its hand-over to events. */
  private async run(): Promise<void> {
    while (!this.closing && !this.listening()) {
      const line = await this.line();
      if (line === null) {
        // An over-long line or EOF: nothing more is read, and the session ends without a reply.
        if (!this.closing) void this.close();
        return;
      }
      const text = await this.answer(line);
      if (text === null) continue;
      if (this.socket.destroyed) return;
      this.out.send(text);
      if (this.upgradePending) await this.upgrade();
      const listen = this.listening();
      if (listen) this.hooks.toListener(this.socket, this.out, listen.levels, listen.parsable);
      if (this.closing) void this.close();
    }
  }
}
