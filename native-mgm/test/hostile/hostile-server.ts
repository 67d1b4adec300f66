import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { answerer, type Answer, type HostileCase } from './behaviours.js';

const PING_BLOCK = Buffer.from('<PING>\n'.repeat(1024), 'latin1');

/**
 * A management server that answers each request according to the current hostile case. Requests are split
 * at the empty line (spec §1.2); a connection keeps the case it was accepted under.
 */
export class HostileServer {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private current: HostileCase = { behaviour: 'mutated', seed: 1 };
  port = 0;

  async start(): Promise<void> {
    const server = createServer((socket) => this.accept(socket));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    this.server = server;
    this.port = (server.address() as { port: number }).port;
  }

  get connectstring(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Sets the case for connections accepted from now on, and drops the ones of the previous case. */
  use(c: HostileCase): void {
    this.current = c;
    for (const s of this.sockets) s.destroy();
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => this.server?.close(r) ?? r(undefined));
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    const answer = answerer(this.current);
    const timers = new Set<NodeJS.Timeout>();
    let closed = false;
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      closed = true;
      this.sockets.delete(socket);
      timers.forEach((t) => clearInterval(t));
    });
    let buffered = '';
    let index = 0;
    let busy = false;
    socket.on('data', (chunk: Buffer) => {
      if (busy) return; // after a flood or a trickle began, requests are ignored, as a wedged server would
      buffered += chunk.toString('latin1');
      for (let end = buffered.indexOf('\n\n'); end >= 0 && !busy; end = buffered.indexOf('\n\n')) {
        const command = buffered.slice(0, buffered.indexOf('\n'));
        buffered = buffered.slice(end + 2);
        busy = this.perform(socket, answer(command, index++), timers, () => closed);
      }
    });
  }

  /** Returns true when the answer keeps the connection occupied (no further requests are read). */
  private perform(socket: Socket, a: Answer, timers: Set<NodeJS.Timeout>, closed: () => boolean): boolean {
    switch (a.kind) {
      case 'silent':
        return true;
      case 'send':
        if (a.thenClose) socket.end(a.bytes);
        else socket.write(a.bytes);
        return false;
      case 'trickle': {
        let i = 0;
        const t = setInterval(() => {
          if (closed() || i >= a.bytes.length) return clearInterval(t);
          socket.write(a.bytes.subarray(i, ++i));
        }, a.everyMs);
        timers.add(t);
        return true;
      }
      case 'ping-forever': {
        socket.write(a.after);
        const pump = (): void => {
          // Respect back-pressure so the flood costs the client, not this process's memory.
          while (!closed() && socket.write(PING_BLOCK));
          if (!closed()) socket.once('drain', pump);
        };
        pump();
        return true;
      }
    }
  }
}
