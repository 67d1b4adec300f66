import { createServer, type Server, type Socket } from 'node:net';
import type { ClusterModel } from './cluster-model.js';
import type { MgmdContext } from './commands/context.js';
import { HANDLERS } from './commands/registry.js';
import type { Prng } from './state/prng.js';
import type { SimEvent } from './state/sim-event.js';
import { ClusterLogState } from './wire/cluster-log.js';
import { EventHub } from './wire/event-hub.js';
import type { WriteMode } from './wire/output-queue.js';
import { Session } from './wire/session.js';
import { acceptTls, loadServerTls, type ServerTls, type SimTlsOptions } from './tls/server-tls.js';
import { isBootstrapCommand, isRefusedWithoutTls, TLS_REQUIRED_REPLY } from './tls/tls-gate.js';

export interface MgmdServerOptions {
  nodeId: number;
  host: string;
  /** 0 = an ephemeral port, fixed after the first start so a restarted server comes back on it. */
  port: number;
  model: ClusterModel;
  writeMode: WriteMode;
  coalesceEvents: boolean;
  /** Time for each request line (the server's 30 s, spec §14.2); tests shorten it. */
  lineTimeoutMs?: number;
  prng: Prng;
  tls?: SimTlsOptions;
}

/** One simulated ndb_mgmd: its TCP listener, command sessions and event listeners. */
export class MgmdServer implements MgmdContext {
  readonly nodeId: number;
  readonly model: ClusterModel;
  readonly host: string;
  clusterLog = new ClusterLogState();
  accepted = 0;
  upgraded = 0;
  authfail = 0;
  port: number;
  /** Loaded at each start, as a restarted ndb_mgmd reads its keys again. */
  private tls: ServerTls | null = null;
  private server: Server | null = null;
  private hub: EventHub | null = null;
  private readonly live = new Map<number, Session>();
  private readonly sockets = new Set<Socket>();
  private nextSessionId = 1;

  constructor(private readonly options: MgmdServerOptions) {
    this.nodeId = options.nodeId;
    this.model = options.model;
    this.host = options.host;
    this.port = options.port;
  }

  get running(): boolean {
    return this.server !== null;
  }

  sessions(): ReadonlyArray<Session> {
    return [...this.live.values()];
  }

  /** The version this server runs (and announces in `get version`). */
  get version(): number {
    return this.model.mgm.get(this.nodeId)?.version ?? this.model.version;
  }

  get tlsAvailable(): boolean {
    return this.tls !== null;
  }

  /** A restarted server is a new process: new session ids, default log settings. */
  async start(): Promise<void> {
    if (this.server) return;
    this.tls = this.options.tls ? loadServerTls(this.options.tls.searchPath) : null;
    if (this.options.tls?.require && !this.tls) {
      throw new Error(`management server ${this.nodeId}: TLS is required but no keys were found in ${this.options.tls.searchPath}`);
    }
    // Half-open: a client that shuts down its sending side still gets the replies to what it sent, as from the
    // server, which answers every request it read before it reads EOF.
    const server = createServer({ allowHalfOpen: true }, (socket) => this.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, this.options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address();
    if (address && typeof address === 'object') this.port = address.port;
    this.server = server;
    this.hub = new EventHub(this.model.clock, this.options.coalesceEvents);
    this.nextSessionId = 1;
    this.accepted = 0;
    this.upgraded = 0;
    this.authfail = 0;
    this.clusterLog = new ClusterLogState();
  }

  /** Stops accepting (the port refuses), and closes every session and listener. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    this.hub?.closeAll();
    this.hub = null;
    await Promise.all([...this.live.values()].map((s) => s.close()));
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  deliver(event: SimEvent): void {
    if (event.mgmd === undefined || event.mgmd === this.nodeId) this.hub?.deliver(event);
  }

  private accept(socket: Socket): void {
    this.accepted += 1;
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    const session = new Session(this.nextSessionId++, socket, this.options.writeMode, this.options.prng, this.version, {
      refuse: (handle, command) => {
        const starting = this.model.startingReply;
        if (starting !== null && !isBootstrapCommand(command.name)) return `${starting}\n\n`;
        if (!this.options.tls?.require || !isRefusedWithoutTls(handle.tls, command.name)) return null;
        this.authfail += 1;
        return TLS_REQUIRED_REPLY;
      },
      dispatch: (handle, command, args) => {
        const handler = HANDLERS.get(command.name);
        if (!handler) throw new Error(`no handler for ${command.name}`);
        const answer = handler({ mgmd: this, session: handle, args });
        return this.model.withheldReplies.has(command.name) ? Promise.resolve(answer).then(() => null) : answer;
      },
      toListener: (sock, out, levels, parsable) => {
        this.live.delete(session.id);
        this.hub?.add(sock, out, levels, parsable);
      },
      ended: (s) => {
        this.live.delete(s.id);
        this.model.nodeIds.release(s);
      },
      acceptTls: async (raw) => {
        if (!this.tls) throw new Error('no TLS context');
        const secured = await acceptTls(raw, this.tls);
        this.upgraded += 1;
        return secured;
      },
    }, this.options.lineTimeoutMs);
    this.live.set(session.id, session);
  }
}
