import type { X509Certificate } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Prng } from '../state/prng.js';
import type { LevelMap } from './event-filter.js';
import { OutputQueue, type WriteMode } from './output-queue.js';
import { LINE_BUFFER_BYTES, takeLine } from './line-reader.js';
import { formatParserError, RequestParser, type Args, type ParseResult } from './request-parser.js';
import type { CommandSpec } from './command-table.js';

/** How long a closing session waits for its last reply to be flushed. */
const CLOSE_FLUSH_TIMEOUT_MS = 1000;
/** The server's `SOCKET_TIMEOUT`: each request line may take this long, from when the server starts waiting for it (spec §14.2). */
export const LINE_TIMEOUT_MS = 30_000;

/** Why a line could not be read: the peer closed, the line did not fit, or its time ran out with or without part of it. */
interface NoLine {
  why: 'eof' | 'too-long' | 'timeout-partial' | 'timeout-empty';
}

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

/** The reply to send; null to send none (the command ran, its reply is withheld). */
export type Dispatch = (session: SessionHandle, command: CommandSpec, args: Args) => Promise<string | null> | string | null;

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
 * trailing bulk data): requests run strictly one after another, each reply is written in one piece. Lines are
 * read as the server reads them (spec §14.2, §14.3): a line of 510 characters at most, CRLF taken as LF except
 * for a bare CRLF, 30 s for each line. A command line that is too long, or half sent when its time is up, ends the
 * session without a reply; an argument line that is cuts the request short, and the command runs with what it has.
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
    private readonly lineTimeoutMs = LINE_TIMEOUT_MS,
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

  /** Resolves true when more bytes arrived, the peer closed or the session is closing; false at `deadline`. */
  private more(deadline: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = null;
        resolve(false);
      }, Math.max(0, deadline - Date.now()));
      this.wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  }

  /**
   * The next line without its LF (see takeLine), or why there is none. The line's time counts from now, so idle
   * time before its first byte counts too; when it runs out, the bytes of the line received so far are dropped.
   */
  private async line(limit = LINE_BUFFER_BYTES): Promise<string | NoLine> {
    const deadline = Date.now() + this.lineTimeoutMs;
    for (;;) {
      const took = takeLine(this.input, this.tls, limit);
      if (took.kind !== 'more') {
        this.input = this.input.slice(took.consumed);
        return took.kind === 'line' ? took.text : { why: 'too-long' };
      }
      if (this.eof || this.closing) return { why: 'eof' };
      if (!(await this.more(deadline))) {
        const partial = this.input !== '';
        this.input = '';
        return { why: partial ? 'timeout-partial' : 'timeout-empty' };
      }
    }
  }

  /** Exactly `count` bytes, or null at EOF. */
  private async bytes(count: number): Promise<string | null> {
    while (this.input.length < count) {
      if (this.eof || this.closing) return null;
      await this.more(Infinity);
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
      if (typeof line !== 'string') return false;
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
   * What a line that could not be read means (spec §14.2, §14.3): 'close' to end the session without a reply,
   * else the parser's answer, null for none. Where a command is expected, silence is nothing and a half line
   * over TLS is dropped; inside a request, the request is cut short.
   */
  private noLine({ why }: NoLine): ParseResult | 'close' | null {
    if (why === 'eof') return 'close';
    if (this.parser.pending !== null) return this.parser.cut();
    if (why === 'timeout-empty' || (why === 'timeout-partial' && this.tls)) return null;
    return 'close';
  }

  /**
   * The answer to what the parser made of a line: null while a request is still being read, or when nothing is
   * to be sent; 'close' for a request the server would crash on. A parser error echoes the bytes it was sent,
   * whatever they are, as the server's does.
   */
  private async answer(parsed: ParseResult | null): Promise<string | Buffer | 'close' | null> {
    if (parsed === null) return null;
    if (parsed.kind === 'fatal') return 'close';
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
      const parsed = typeof line === 'string' ? this.parser.feed(line) : this.noLine(line);
      const text = parsed === 'close' ? 'close' : await this.answer(parsed);
      if (text === 'close') {
        // Nothing more is read, and the session ends without a reply.
        if (!this.closing) void this.close();
        return;
      }
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
