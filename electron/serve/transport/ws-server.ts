import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { EngineHandlers } from '../../contract/page-safe/api.js';
import { escapedJson } from '../../contract/page-safe/outside-text.js';
import type { EngineHost } from '../../engine/core/engine-host.js';
import { admit, type AccessPolicy } from '../access/auth.js';
import { BAD_MESSAGE, dispatchRequest } from './bridge.js';
import {
  HEARTBEAT_TAG,
  PUSH_TAG,
  readRequestFrame,
  RESPONSE_TAG,
  RESYNC_TAG,
  type HeartbeatFrame,
  type PushFrame,
  type ResponseFrame,
  type ResyncFrame,
} from '../../contract/page-safe/ws-protocol.js';

export const WS_PATH = '/ws';
/** Requests are small; anything bigger is a mistake or an attack. */
const MAX_FRAME_BYTES = 1 << 20;
/**
 * Most data a client may have unsent. Past it the client gets no pushes (they are dropped, never queued) until
 * it has caught up, then a resync frame: one slow or stalled page costs the server ~2 MB, not without bound.
 * Also the largest answer sent at all: exports go over HTTP (GET /api/export).
 */
export const MAX_CLIENT_BUFFER_BYTES = 2 << 20;
/** A client that fell behind is caught up once its buffer is down to this. */
const CAUGHT_UP_BYTES = 256 << 10;
/**
 * A page that hears no heartbeat for three of these says it is disconnected: 500 ms keeps that within the 2 s an
 * operator should wait to learn the dashboard froze.
 */
export const DEFAULT_HEARTBEAT_MS = 500;
/**
 * The beat is frequent for the page's sake; dropping a client needs more patience, since a busy browser or a loaded
 * machine can answer a ping late without being gone.
 */
const PONG_TIMEOUT_MS = 10_000;
export const TOO_LARGE = 'TOO_LARGE';
/** A dashboard is a handful of pages: a wall screen, an operator or two. */
export const DEFAULT_MAX_WEBSOCKETS = 64;

/**
 * Refuses an upgrade request with a plain HTTP answer and closes its connection, without waiting for the client to
 * close its side: one that never reads would keep the half-closed connection, and its slot, until the idle timeout.
 */
export function rejectUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${reason.length}\r\n\r\n${reason}`, () => socket.destroy());
}

/** One browser: its socket, whether pushes are being dropped for it, whether it answered the last ping. */
class Client {
  behind = false;
  /** When it last answered a ping (or connected). */
  heardAt = Date.now();
  constructor(readonly ws: WebSocket) {}

  get open(): boolean {
    return this.ws.readyState === this.ws.OPEN;
  }

  push(message: unknown): void {
    if (!this.open || !this.caughtUp()) return;
    if (this.ws.bufferedAmount > MAX_CLIENT_BUFFER_BYTES) {
      this.behind = true;
      return;
    }
    this.ws.send(escapedJson({ type: PUSH_TAG, message } satisfies PushFrame));
  }

  respond(frame: ResponseFrame): void {
    if (!this.open) return;
    // It keeps asking while far behind on reading (a push may take a slow client a little past the cap, so
    // twice that): buffering its answers would be without bound.
    if (this.ws.bufferedAmount > 2 * MAX_CLIENT_BUFFER_BYTES) return void this.ws.terminate();
    const text = escapedJson(frame);
    if (text.length <= MAX_CLIENT_BUFFER_BYTES) return this.ws.send(text);
    const error = { code: TOO_LARGE, message: `the answer (${text.length} bytes) exceeds what a WebSocket client is sent at once; exports: GET /api/export` };
    this.ws.send(escapedJson({ type: RESPONSE_TAG, id: frame.id, ok: false, error } satisfies ResponseFrame));
  }

  /** Whether pushes flow; a client that was behind and has drained is told to resync first. */
  caughtUp(): boolean {
    if (!this.behind) return true;
    if (this.ws.bufferedAmount > CAUGHT_UP_BYTES) return false;
    this.behind = false;
    this.ws.send(JSON.stringify({ type: RESYNC_TAG } satisfies ResyncFrame));
    return true;
  }

  /**
   * Whether it stopped reading: a client that reads answers each ping at once, so one that answered none for three
   * beats (1.5 s at least) reads nothing, and gives up its place to a new WebSocket or connection first.
   */
  unread(intervalMs: number): boolean {
    return Date.now() - this.heardAt > Math.max(3 * intervalMs, 1500);
  }

  /** Every interval: drop a client that answered no ping for PONG_TIMEOUT_MS, else ping it and send a heartbeat. */
  beat(intervalMs: number): void {
    if (Date.now() - this.heardAt > Math.max(PONG_TIMEOUT_MS, 2 * intervalMs)) return void this.ws.terminate();
    if (!this.open) return;
    this.ws.ping();
    if (this.caughtUp()) this.ws.send(JSON.stringify({ type: HEARTBEAT_TAG, at: Date.now(), intervalMs } satisfies HeartbeatFrame));
  }
}

async function answer(handlers: EngineHandlers, client: Client, data: RawData, isBinary: boolean): Promise<void> {
  if (isBinary) {
    client.respond({ type: RESPONSE_TAG, id: null, ok: false, error: { code: BAD_MESSAGE, message: 'binary frames are not part of the contract' } });
    return;
  }
  const frame = readRequestFrame(data.toString());
  if ('invalid' in frame) {
    client.respond({ type: RESPONSE_TAG, id: frame.id, ok: false, error: { code: BAD_MESSAGE, message: frame.invalid } });
    return;
  }
  const result = await dispatchRequest(handlers, frame.name, frame.request);
  client.respond({ type: RESPONSE_TAG, id: frame.id, ...result });
}

/** The WebSocket side of serve: `isUnread` tells the connection slots which upgraded connection reads nothing. */
export interface WebSocketSide {
  isUnread(socket: Duplex): boolean;
  close(): void;
}

/**
 * The contract over WebSocket on `server`'s `/ws`: the token (if any) and the Origin are checked before the
 * upgrade, every request goes through the shared bridge, every subscriber gets the engine's pushes, and every
 * `heartbeatMs` a ping and a heartbeat frame (clients that miss a pong are dropped). At the cap, the oldest client
 * that reads nothing makes room for a new one; without one the new one gets 503.
 */
export function attachWebSocket(
  server: Server,
  engine: Pick<EngineHost, 'handlers' | 'subscribe'>,
  access: AccessPolicy,
  { heartbeatMs = DEFAULT_HEARTBEAT_MS, maxClients = DEFAULT_MAX_WEBSOCKETS }: { heartbeatMs?: number | undefined; maxClients?: number | undefined } = {},
): WebSocketSide {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  /** Insertion order is connection order: the first entries are the oldest. */
  const clients = new Map<Duplex, Client>();
  const heartbeat = setInterval(() => clients.forEach((c) => c.beat(heartbeatMs)), heartbeatMs);
  const oldestUnread = (): [Duplex, Client] | undefined => [...clients].find(([, c]) => c.unread(heartbeatMs));
  heartbeat.unref();

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== WS_PATH) return rejectUpgrade(socket, 404, 'Not Found');
    const admission = admit(req, access);
    if (!admission.ok) return rejectUpgrade(socket, admission.status, admission.reason);
    // Each WebSocket holds a subscription and up to MAX_CLIENT_BUFFER_BYTES: their number is capped apart from
    // the connection cap, so pages cannot take every connection (and ~2 MB each) from plain HTTP.
    if (clients.size >= maxClients) {
      const unread = oldestUnread();
      if (!unread) return rejectUpgrade(socket, 503, 'Too many WebSockets');
      clients.delete(unread[0]);
      unread[1].ws.terminate();
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  };
  server.on('upgrade', onUpgrade);

  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    const client = new Client(ws);
    clients.set(req.socket, client);
    // The first frame tells the page the beat to expect, so a server that goes silent straight after the snapshot
    // is noticed too.
    client.beat(heartbeatMs);
    const unsubscribe = engine.subscribe((message) => client.push(message));
    ws.on('message', (data, isBinary) => void answer(engine.handlers, client, data, isBinary));
    ws.on('pong', () => (client.heardAt = Date.now()));
    ws.on('close', () => {
      if (clients.get(req.socket) === client) clients.delete(req.socket);
      unsubscribe();
    });
    // An oversized or broken frame closes that socket only; ws reports it here and the server keeps serving.
    ws.on('error', () => ws.terminate());
  });

  return {
    isUnread: (socket) => clients.get(socket)?.unread(heartbeatMs) ?? false,
    close() {
      clearInterval(heartbeat);
      server.off('upgrade', onUpgrade);
      for (const ws of wss.clients) ws.close(1001, 'server shutting down');
      wss.close();
    },
  };
}
