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

/** A request, queued or on the wire. */
interface Job {
  command: string;
  text: string;
  hasArgs: boolean;
  /** What to announce to the reader; null for the resync probe, which the reader already expects. */
  shape: ReplyShape | null;
  parse: (reply: Reply) => unknown;
  options: RequestOptions;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/**
 * One TCP session with a management server. Requests are strictly serialised (the server answers one at a
 * time anyway, and a reply we stopped waiting for must never be taken for the next one): a request that
 * times out or is cancelled after it was sent ends the session, and the owner dials a new one.
 */
export class MgmConnection {
  private readonly reader = new StreamReader();
  /** The request on the wire, and those waiting for it. */
  private active: Job | null = null;
  private readonly queue: Job[] = [];
  private endError: MgmError | null = null;
  /**
   * One deadline timer for the session, not one per request (a poll loop would add and remove a timer every few
   * milliseconds): `deadline` moves with each request, the timer fires at or before it and checks.
   */
  private deadline = 0;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = 0;
  private readonly onAbort = (): void => {
    if (this.active) this.end(new AbortedError(this.active.command));
  };
  private streamHandler: ((frame: StreamFrame) => void) | null = null;
  /** See readAtMostEvery. */
  private holdMs = 0;
  /** From the read that starts a pause until the pause ends. */
  private holding = false;
  private holdTimer: NodeJS.Timeout | null = null;
  private readonly endListeners = new Set<(err: MgmError) => void>();

  constructor(
    private readonly socket: Socket,
    readonly host: string,
    readonly port: number,
  ) {
    const onFrame = (frame: Frame): void => this.onFrame(frame);
    socket.on('data', (chunk: Buffer) => {
      this.reader.feed(chunk, onFrame);
      if (this.holdMs > 0 && !this.holding && this.endError === null) {
        this.holding = true;
        // Not at once: the chunk may be the one the paused socket kept, and what arrived after it is read in this
        // same turn of the event loop; paused now, that would wait for the next pause's end (twice `ms` late).
        setImmediate(() => this.hold());
      }
    });
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

  /**
   * After each read, leaves the socket unread for `ms` (0: reads bytes as they come): what arrived meanwhile is read
   * and parsed in one go. An idle cluster of 144 data nodes sends ~230 statistics reports a second, each on its own;
   * reading them one by one, the wake-ups alone cost more than all the engine does with them. A record is then
   * read (and stamped) at most `ms` late. The dialled socket's small read buffer (see dial.ts) makes the pause stop
   * the reads themselves, not only their delivery.
   */
  readAtMostEvery(ms: number): void {
    this.holdMs = ms;
    if (ms === 0 && this.holding) this.release();
  }

  private hold(): void {
    if (!this.holding || this.endError !== null) return;
    this.socket.pause();
    this.holdTimer = setTimeout(() => this.release(), this.holdMs);
  }

  private release(): void {
    if (this.holdTimer !== null) clearTimeout(this.holdTimer);
    this.holdTimer = null;
    this.holding = false;
    if (this.endError === null) this.socket.resume();
  }

  /** Receives pings and records once `listen event` has turned this session into an event stream. */
  onStream(handler: (frame: StreamFrame) => void): void {
    this.streamHandler = handler;
  }

  request<T>(command: string, args: RequestArgs, shape: ReplyShape, parse: (reply: Reply) => T, options: RequestOptions): Promise<T> {
    const text = formatRequest(command, args); // throws before anything is queued or sent
    return new Promise<T>((resolve, reject) => {
      this.enqueue({ command, text, hasArgs: args.length > 0, shape, parse, options, resolve: resolve as (v: unknown) => void, reject });
    });
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

  private enqueue(job: Job): void {
    if (this.active === null && this.queue.length === 0) this.start(job);
    else this.queue.push(job);
  }

  /** Sends a request; one that cannot be sent is refused at once and the next one goes. */
  private start(job: Job): void {
    const { signal } = job.options;
    if (this.endError || signal?.aborted) {
      job.reject(this.endError ?? new AbortedError(job.command));
      this.next();
      return;
    }
    this.active = job;
    this.arm(job.options.timeoutMs);
    signal?.addEventListener('abort', this.onAbort, { once: true });
    if (job.shape) this.reader.expect(job.shape, job.hasArgs);
    this.socket.write(job.text);
  }

  private next(): void {
    const job = this.queue.shift();
    if (job) this.start(job);
  }

  /** The active request's reply arrived: parsed in place, then the next request goes. */
  private settle(reply: Reply): void {
    const job = this.active as Job;
    this.active = null;
    job.options.signal?.removeEventListener('abort', this.onAbort);
    let value: unknown;
    try {
      value = job.parse(reply);
    } catch (err) {
      // The server answers each leftover argument line too; probe with `check connection` before the next request.
      if (err instanceof ServerParserError && job.hasArgs) this.resync(job, err);
      else {
        job.reject(err);
        this.next();
      }
      return;
    }
    job.resolve(value);
    this.next();
  }

  /** The reader already expects the resync (it saw the parser error); only the probe is left to send. */
  private resync(job: Job, err: ServerParserError): void {
    this.start({
      command: 'check connection',
      text: formatRequest('check connection'),
      hasArgs: false,
      shape: null,
      parse: () => undefined,
      options: job.options,
      resolve: () => job.reject(err),
      reject: (e) => job.reject(e),
    });
  }

  /** Once sent, the reply will still arrive; only a fresh session keeps replies and requests paired, so a timeout ends it. */
  private arm(timeoutMs: number): void {
    const now = Date.now();
    this.deadline = now + timeoutMs;
    if (this.timer !== null) {
      if (this.timerAt <= this.deadline) return;
      clearTimeout(this.timer);
    }
    this.timerAt = this.deadline;
    // The socket keeps the process alive while a request is out; an idle session's timer must not.
    this.timer = setTimeout(this.onTimer, timeoutMs).unref();
  }

  private readonly onTimer = (): void => {
    this.timer = null;
    const job = this.active;
    if (job === null || this.endError) return;
    const left = this.deadline - Date.now();
    if (left > 0) this.arm(left);
    else this.end(new TimeoutError(`"${job.command}" on ${this.host}:${this.port}`, job.options.timeoutMs));
  };

  private onFrame(frame: Frame): void {
    if (frame.type === 'reply') {
      if (this.active) this.settle(frame.reply);
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
    if (this.holdTimer !== null) clearTimeout(this.holdTimer);
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const job = this.active;
    this.active = null;
    if (job) {
      job.options.signal?.removeEventListener('abort', this.onAbort);
      job.reject(err);
    }
    // Queued requests were never sent; they fail with the same reason, in order.
    for (let queued = this.queue.shift(); queued; queued = this.queue.shift()) queued.reject(err);
    for (const l of this.endListeners) l(err);
    this.endListeners.clear();
  }
}
