import type { Socket } from 'node:net';
import { AbortedError, ConnectionClosedError, type MgmError, ProtocolError, ServerParserError, TimeoutError } from '../errors.js';
import type { Frame, Reply, ReplyShape } from '../protocol/frames.js';
import { formatRequest, type RequestArgs } from '../protocol/request.js';
import { StreamReader } from '../protocol/stream-reader.js';

export interface RequestOptions {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

export type StreamFrame = Exclude<Frame, { type: 'reply' }>;

interface Pending {
  resolve(reply: Reply): void;
  reject(err: MgmError): void;
}

/**
 * One TCP session with a management server. Requests are strictly serialised (the server answers one at a
 * time anyway, and a reply we stopped waiting for must never be taken for the next one): a request that
 * times out or is cancelled after it was sent ends the session, and the owner dials a new one.
 */
export class MgmConnection {
  private readonly reader = new StreamReader();
  private tail: Promise<unknown> = Promise.resolve();
  private pending: Pending | null = null;
  private endError: MgmError | null = null;
  private streamHandler: ((frame: StreamFrame) => void) | null = null;
  private readonly endListeners = new Set<(err: MgmError) => void>();

  constructor(
    private readonly socket: Socket,
    readonly host: string,
    readonly port: number,
  ) {
    socket.on('data', (chunk: Buffer) => this.reader.feed(chunk, (f) => this.onFrame(f)));
    socket.on('error', (err) => this.end(new ConnectionClosedError(`connection to ${host}:${port} failed: ${err.message}`)));
    socket.on('close', () => this.end(new ConnectionClosedError(`management server ${host}:${port} closed the connection`)));
  }

  get isOpen(): boolean {
    return this.endError === null;
  }

  /** Called once when the session ends, with why. */
  onEnd(listener: (err: MgmError) => void): () => void {
    if (this.endError) {
      listener(this.endError);
      return () => {};
    }
    this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }

  /** Receives pings and records once `listen event` has turned this session into an event stream. */
  onStream(handler: (frame: StreamFrame) => void): void {
    this.streamHandler = handler;
  }

  request<T>(command: string, args: RequestArgs, shape: ReplyShape, parse: (reply: Reply) => T, options: RequestOptions): Promise<T> {
    const text = formatRequest(command, args); // throws before anything is queued or sent
    const run = this.tail.then(() => this.exchange(command, text, args.length > 0, shape, parse, options));
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Polite close as mgmapi does it: `end session` (one-line reply), then close the socket ourselves. */
  async close(timeoutMs = 1000): Promise<void> {
    if (this.endError) return;
    if (!this.reader.isEventStream) {
      await this.request('end session', [], { kind: 'line', header: 'end session reply' }, () => undefined, { timeoutMs }).catch(() => undefined);
    }
    this.destroy(new ConnectionClosedError('connection closed by ndbtop'));
  }

  destroy(reason: MgmError = new ConnectionClosedError('connection closed by ndbtop')): void {
    this.end(reason);
  }

  private async exchange<T>(
    command: string,
    text: string,
    hasArgs: boolean,
    shape: ReplyShape,
    parse: (reply: Reply) => T,
    options: RequestOptions,
  ): Promise<T> {
    const reply = await this.roundTrip(command, text, { shape, hasArgs }, options);
    try {
      return parse(reply);
    } catch (err) {
      if (err instanceof ServerParserError && hasArgs) await this.resync(options);
      throw err;
    }
  }

  /** The reader already expects the resync (it saw the parser error); only the probe is left to send. */
  private resync(options: RequestOptions): Promise<Reply> {
    return this.roundTrip('check connection', formatRequest('check connection'), null, options);
  }

  private roundTrip(
    command: string,
    text: string,
    expectation: { shape: ReplyShape; hasArgs: boolean } | null,
    { timeoutMs, signal }: RequestOptions,
  ): Promise<Reply> {
    if (this.endError) return Promise.reject(this.endError);
    if (signal?.aborted) return Promise.reject(new AbortedError(command));
    return new Promise<Reply>((resolve, reject) => {
      const settle = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.pending = null;
      };
      // Once sent, the reply will still arrive; only a fresh session keeps replies and requests paired.
      const timer = setTimeout(() => {
        const err = new TimeoutError(`"${command}" on ${this.host}:${this.port}`, timeoutMs);
        this.end(err);
      }, timeoutMs);
      const onAbort = (): void => this.end(new AbortedError(command));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending = {
        resolve: (reply) => {
          settle();
          resolve(reply);
        },
        reject: (err) => {
          settle();
          reject(err);
        },
      };
      if (expectation) this.reader.expect(expectation.shape, expectation.hasArgs);
      this.socket.write(text);
    });
  }

  private onFrame(frame: Frame): void {
    if (frame.type === 'reply') {
      this.pending?.resolve(frame.reply);
      return;
    }
    if (frame.type === 'error' && frame.fatal) {
      this.end(frame.error);
      return;
    }
    if (this.streamHandler) this.streamHandler(frame);
    else if (frame.type !== 'error') this.end(new ProtocolError('event data on a command connection'));
  }

  private end(err: MgmError): void {
    if (this.endError) return;
    this.endError = err;
    this.socket.destroy();
    this.pending?.reject(err);
    for (const l of this.endListeners) l(err);
    this.endListeners.clear();
  }
}
