import { connect, type Socket } from 'node:net';
import { startSimulator, type Simulator, type SimulatorOptions } from '../index.js';

const DEFAULT_TIMEOUT_MS = 15_000;

/** A plain TCP connection that collects every byte, so tests compare with the spec's bytes exactly. */
export class RawConnection {
  private buffer = '';
  private waiters: Array<() => void> = [];
  private ended = false;
  /** Number of 'data' events, to see that replies came in pieces. */
  chunks = 0;

  private constructor(readonly socket: Socket) {
    socket.on('data', (d: Buffer) => {
      this.chunks += 1;
      this.buffer += d.toString('utf8');
      this.wake();
    });
    socket.on('close', () => {
      this.ended = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  static open(port: number, host = '127.0.0.1'): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ port, host }, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  get isClosed(): boolean {
    return this.ended;
  }

  /** Everything received and not yet consumed. */
  get pending(): string {
    return this.buffer;
  }

  send(text: string): void {
    this.socket.write(text);
  }

  /** Waits until `end(buffer)` gives an end offset, then consumes and returns the bytes up to it. */
  async read(end: (buffer: string) => number | null, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const at = end(this.buffer);
      if (at !== null) {
        const out = this.buffer.slice(0, at);
        this.buffer = this.buffer.slice(at);
        return out;
      }
      if (this.ended) throw new Error(`connection closed; received so far: ${JSON.stringify(this.buffer)}`);
      if (Date.now() > deadline) throw new Error(`timed out; received so far: ${JSON.stringify(this.buffer.slice(-500))}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** One reply that ends with an empty line (the first "\n\n"). */
  readReply(timeoutMs?: number): Promise<string> {
    return this.read((b) => {
      const i = b.indexOf('\n\n');
      return i < 0 ? null : i + 2;
    }, timeoutMs);
  }

  readExactly(n: number, timeoutMs?: number): Promise<string> {
    return this.read((b) => (b.length >= n ? n : null), timeoutMs);
  }

  /** Sends a request and reads one reply. */
  async request(text: string, timeoutMs?: number): Promise<string> {
    this.send(text);
    return this.readReply(timeoutMs);
  }

  async waitClosed(timeoutMs = DEFAULT_TIMEOUT_MS): Promise<void> {
    await this.read(() => (this.ended ? 0 : null), timeoutMs).catch((err: unknown) => {
      if (!this.ended) throw err;
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const fn of w) fn();
  }
}

/** Runs `body` against a fresh simulator and closes everything afterwards, whatever happens. */
export async function withSim(options: SimulatorOptions, body: (sim: Simulator, connections: Connections) => Promise<void>): Promise<void> {
  const sim = await startSimulator(options);
  const opened: RawConnection[] = [];
  const connections: Connections = async (port = sim.mgmds[0]?.port ?? 0) => {
    const c = await RawConnection.open(port);
    opened.push(c);
    return c;
  };
  try {
    await body(sim, connections);
  } finally {
    for (const c of opened) c.close();
    await sim.close();
  }
}
export type Connections = (port?: number) => Promise<RawConnection>;

/** `get status` reply as a map of `node.<id>.<field>` → value (for lifecycle tests; goldens compare bytes). */
export function statusMap(reply: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of reply.split('\n').slice(1)) {
    const i = line.indexOf(': ');
    if (i > 0) map.set(line.slice(0, i), line.slice(i + 2));
  }
  return map;
}

/** Waits until `poll()` satisfies `ok`, polling every 20 ms. */
export async function eventually<T>(poll: () => Promise<T> | T, ok: (v: T) => boolean, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await poll();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not reached; last value: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
