import { createServer, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { SPEC_REPLIES } from '../../test/fixtures/spec-transcripts.js';

export interface ScriptedRequest {
  command: string;
  args: Record<string, string>;
  /** The request exactly as its bytes arrived. */
  raw: string;
}

/** What the script does with one request: answer these bytes, say nothing, or hang up. */
export type ScriptAction = string | { stall: true } | { close: true } | { chunks: string[] };

/**
 * A TCP peer whose every answer a test chooses, for what the simulator by design never does: stall, hang up
 * mid-reply, send garbage. It splits requests at the empty line like the real server (spec §1.2).
 */
export class ScriptedServer {
  readonly requests: ScriptedRequest[] = [];
  readonly sockets = new Set<Socket>();
  /**
   * The sockets a `listen event` was answered on: where a test may write records and PINGs, as a real server's event
   * stream begins only after that reply (a PING to a socket still awaiting it would be a server bug, not the client's).
   */
  readonly listeners = new Set<Socket>();
  private server: Server;
  port = 0;

  constructor(private readonly script: (req: ScriptedRequest, socket: Socket) => ScriptAction) {
    this.server = createServer((socket) => this.accept(socket));
  }

  static async start(script: (req: ScriptedRequest, socket: Socket) => ScriptAction): Promise<ScriptedServer> {
    const s = new ScriptedServer(script);
    s.server.listen(0, '127.0.0.1');
    await once(s.server, 'listening');
    const addr = s.server.address();
    if (addr === null || typeof addr === 'string') throw new Error('no address');
    s.port = addr.port;
    return s;
  }

  get connectionCount(): number {
    return this.sockets.size;
  }

  /** Drops every client at once, as a management server that dies does. */
  dropAll(): void {
    for (const s of this.sockets) s.destroy();
  }

  async close(): Promise<void> {
    this.dropAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.listeners.delete(socket);
    });
    socket.on('error', () => socket.destroy());
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('utf8');
      for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
        const raw = buffered.slice(0, end + 2);
        buffered = buffered.slice(end + 2);
        const [command = '', ...lines] = raw.trimEnd().split('\n');
        const args: Record<string, string> = {};
        for (const l of lines) {
          const i = l.indexOf(':');
          args[l.slice(0, i).trim()] = l.slice(i + 1).trim().replace(/^"(.*)"$/, '$1');
        }
        const req = { command, args, raw };
        this.requests.push(req);
        const action = this.script(req, socket);
        this.act(socket, action);
        if (command === 'listen event' && typeof action === 'string') this.listeners.add(socket);
      }
    });
  }

  private act(socket: Socket, action: ScriptAction): void {
    if (typeof action === 'string') socket.write(action);
    else if ('close' in action) socket.destroy();
    else if ('chunks' in action) {
      // Every chunk in its own write, a tick apart, so the client really receives them separately.
      action.chunks.forEach((c, i) => setTimeout(() => socket.writable && socket.write(c), i));
    }
  }
}

/** Answers the bootstrap like an 8.4.3 ndb_mgmd with node id `mgmdNodeId`, and `get status` with the spec's example. */
export function mgmdScript(mgmdNodeId = 1, extra?: (req: ScriptedRequest, socket: Socket) => ScriptAction | undefined) {
  return (req: ScriptedRequest, socket: Socket): ScriptAction => {
    const custom = extra?.(req, socket);
    if (custom !== undefined) return custom;
    switch (req.command) {
      case 'get version':
        return SPEC_REPLIES.getVersion;
      case 'set clientversion':
        return SPEC_REPLIES.setClientVersion;
      case 'get mgmd nodeid':
        return `get mgmd nodeid reply\nnodeid:${mgmdNodeId}\n\n`;
      case 'get status':
        return SPEC_REPLIES.getStatus;
      case 'check connection':
        return SPEC_REPLIES.checkConnection;
      case 'end session':
        return SPEC_REPLIES.endSession;
      default:
        return `result: Unknown command, '${req.command}'\n\n`;
    }
  };
}

/** A real server's `get config reply`: Content-Length counts the base64 with its LFs, then one LF (spec §4.18). */
export function configReply(base64: string): string {
  return `get config reply\nresult: Ok\nContent-Length: ${base64.length}\nContent-Type: ndbconfig/octet-stream\nContent-Transfer-Encoding: base64\n\n${base64}\n`;
}
