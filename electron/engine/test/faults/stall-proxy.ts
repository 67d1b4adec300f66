import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';

interface Pair {
  client: Socket;
  upstream: Socket;
  /** What the client sent so far (only the start is kept: enough to tell an event session). */
  sent: string;
  stalled: boolean;
}

/**
 * A TCP relay in front of a management server that can stop relaying one connection while keeping both of its
 * sockets open: the network path stalls, nothing is closed, and only a timeout on the client can notice.
 */
export class StallProxy {
  private readonly pairs = new Set<Pair>();
  private armed: { match: string; onStall: () => void } | null = null;
  private server: Server | null = null;
  port = 0;

  constructor(private readonly upstreamPort: number) {}

  async start(): Promise<void> {
    const server = createServer((client) => this.relay(client));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    this.server = server;
    this.port = (server.address() as { port: number }).port;
  }

  /**
   * The next reply containing `match` is cut in the middle of that text: the part before reaches the client, the
   * rest and everything after never does. Resolves when it happened.
   */
  stallReplyContaining(match: string): Promise<void> {
    return new Promise((resolve) => (this.armed = { match, onStall: resolve }));
  }

  /** The open event session (the one that sent `listen event`) stops delivering anything, PINGs included. */
  silenceEventSession(): boolean {
    const pair = [...this.pairs].find((p) => !p.stalled && p.sent.includes('listen event'));
    if (pair) pair.stalled = true;
    return pair !== undefined;
  }

  get openPairs(): number {
    return this.pairs.size;
  }

  async close(): Promise<void> {
    for (const p of this.pairs) {
      p.client.destroy();
      p.upstream.destroy();
    }
    await new Promise((r) => this.server?.close(r) ?? r(undefined));
  }

  private relay(client: Socket): void {
    const upstream = connect(this.upstreamPort, '127.0.0.1');
    const pair: Pair = { client, upstream, sent: '', stalled: false };
    this.pairs.add(pair);
    const drop = (): void => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.on('data', (d: Buffer) => {
      if (pair.sent.length < 4096) pair.sent += d.toString('latin1');
      if (!pair.stalled) upstream.write(d);
    });
    upstream.on('data', (d: Buffer) => {
      if (pair.stalled) return;
      const armed = this.armed;
      const at = armed ? d.toString('latin1').indexOf(armed.match) : -1;
      if (armed && at >= 0) {
        this.armed = null;
        pair.stalled = true;
        client.write(d.subarray(0, at + Math.ceil(armed.match.length / 2)));
        armed.onStall();
        return;
      }
      client.write(d);
    });
  }
}
