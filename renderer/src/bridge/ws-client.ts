import type { NdbtopApi } from '../../../electron/contract/page-safe/api.js';
import type { RequestName } from '../../../electron/contract/schemas/channels.js';
import type { PageValidators } from '../../../electron/contract/page-safe/page-validators.js';
import { buildApi, type CallResult } from '../../../electron/contract/page-safe/api-client.js';
import { HEARTBEAT_TAG, PUSH_TAG, readServerFrame, RESYNC_TAG, type RequestFrame } from '../../../electron/contract/page-safe/ws-protocol.js';

/**
 * The browser's side of serve mode. Browser-safe on purpose: no node imports, the global `WebSocket` by
 * default, so the renderer bundles it as is. Node 20 has no global WebSocket; tests pass the `ws` package's.
 */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  // Method syntax on purpose: parameters of methods are compared bivariantly, so both the DOM's WebSocket and
  // the `ws` package's (whose events carry more fields) fit this shape.
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: () => void): void;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export type ConnectionStatus = 'connecting' | 'open' | 'closed';

export interface WebSocketApiOptions {
  /** The page's compiled checks in a browser; zod's in Node. */
  validators: PageValidators;
  /** A request not answered in this time is rejected with code TIMEOUT. */
  timeoutMs?: number;
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  WebSocket?: WebSocketConstructor;
  /**
   * 'open' once the server's first frame on a socket arrives (a socket nobody speaks on is no connection). The UI
   * asks for a full snapshot after 'open' that follows a 'closed': pushes in between are lost.
   */
  onStatus?: (status: ConnectionStatus) => void;
  /** The server dropped pushes for this client (it fell behind): ask for a full snapshot. */
  onResync?: () => void;
  /** Each server heartbeat (server time); a page can show how fresh its link to the server is. */
  onHeartbeat?: (at: number) => void;
  /**
   * Heartbeat intervals of silence after which the connection counts as lost (closed and redialled), even
   * though TCP has not noticed: a server that froze or a network path that died.
   */
  silentIntervals?: number;
  onProtocolError?: (error: Error) => void;
}

export type WebSocketApi = NdbtopApi & {
  /** Stops reconnecting, rejects what is pending with CLOSED, closes the socket. */
  close(): void;
};

const OPEN = 1;

interface Pending {
  resolve(result: CallResult): void;
  frame: string;
  sent: boolean;
  timer: ReturnType<typeof setTimeout>;
}

function withToken(url: string, token: string | undefined): string {
  if (token === undefined) return url;
  // Browsers cannot set headers on a WebSocket upgrade, so the token travels in the query.
  const u = new URL(url);
  u.searchParams.set('token', token);
  return u.toString();
}

export function createWebSocketApi(url: string, token: string | undefined, options: WebSocketApiOptions): WebSocketApi {
  const Impl = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (!Impl) throw new Error('no WebSocket implementation: pass options.WebSocket');
  const timeoutMs = options.timeoutMs ?? 15_000;
  const minDelay = options.reconnectMinMs ?? 250;
  const maxDelay = options.reconnectMaxMs ?? 5_000;
  const target = withToken(url, token);

  const pending = new Map<number, Pending>();
  const pushListeners = new Set<(raw: unknown) => void>();
  let nextId = 1;
  let socket: WebSocketLike | null = null;
  let closed = false;
  let delay = minDelay;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let silenceTimer: ReturnType<typeof setTimeout> | null = null;
  /** The server's heartbeat interval, once heard: a new socket that hears nothing for a few of them is lost too. */
  let beatMs: number | null = null;
  /** Whether the current socket has brought any frame yet: only then is it 'open' to the UI. */
  let heard = false;
  const expectBeat = (ws: WebSocketLike): void => {
    if (silenceTimer) clearTimeout(silenceTimer);
    silenceTimer = beatMs === null ? null : setTimeout(() => lost(ws), beatMs * silentIntervals);
  };
  const silentIntervals = options.silentIntervals ?? 3;

  const settle = (id: number, result: CallResult): void => {
    const p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    clearTimeout(p.timer);
    p.resolve(result);
  };
  const fail = (id: number, code: string, message: string): void => settle(id, { ok: false, error: { code, message } });

  const flush = (): void => {
    for (const p of pending.values()) {
      if (p.sent || !socket || socket.readyState !== OPEN) continue;
      socket.send(p.frame);
      p.sent = true;
    }
  };

  const onFrame = (ws: WebSocketLike, data: unknown): void => {
    if (socket !== ws) return;
    if (!heard) {
      // A socket the server accepted but never speaks on (a hung server behind a live proxy) is not a connection.
      heard = true;
      delay = minDelay;
      options.onStatus?.('open');
    }
    const frame = readServerFrame(typeof data === 'string' ? data : String(data));
    if ('invalid' in frame) {
      options.onProtocolError?.(new Error(frame.invalid));
      return;
    }
    if (frame.type === PUSH_TAG) {
      for (const listener of [...pushListeners]) listener(frame.message);
      return;
    }
    if (frame.type === RESYNC_TAG) return options.onResync?.();
    if (frame.type === HEARTBEAT_TAG) {
      beatMs = frame.intervalMs;
      expectBeat(ws);
      return options.onHeartbeat?.(frame.at);
    }
    if (frame.id === null) {
      // The server could not read one of our frames at all; nothing pending can be matched to it.
      options.onProtocolError?.(new Error(frame.ok ? 'response without id' : `${frame.error.code}: ${frame.error.message}`));
      return;
    }
    settle(frame.id, frame.ok ? { ok: true, response: frame.response } : { ok: false, error: frame.error });
  };

  const connect = (): void => {
    reconnectTimer = null;
    options.onStatus?.('connecting');
    const ws = new Impl(target);
    socket = ws;
    ws.addEventListener('open', () => {
      heard = false;
      expectBeat(ws);
      flush();
    });
    ws.addEventListener('message', (event) => onFrame(ws, event.data));
    // 'error' is always followed by 'close', where reconnecting happens; listening keeps it from being unhandled.
    ws.addEventListener('error', () => undefined);
    ws.addEventListener('close', () => lost(ws));
  };

  /** The socket closed, or went silent (then it is closed too, but a dead path may never confirm that). */
  function lost(ws: WebSocketLike): void {
    if (socket !== ws) return;
    socket = null;
    if (silenceTimer) clearTimeout(silenceTimer);
    silenceTimer = null;
    ws.close();
    // A request already on the wire may or may not have run (an operator action!): never resend it.
    for (const [id, p] of pending) if (p.sent) fail(id, 'DISCONNECTED', 'connection to the ndbtop server lost before the answer');
    options.onStatus?.('closed');
    if (closed) return;
    reconnectTimer = setTimeout(connect, delay);
    delay = Math.min(maxDelay, delay * 2);
  }

  const call = (name: RequestName, request: unknown): Promise<CallResult> =>
    new Promise((resolve) => {
      if (closed) {
        resolve({ ok: false, error: { code: 'CLOSED', message: 'the WebSocket client was closed' } });
        return;
      }
      const id = nextId++;
      const frame: RequestFrame = { id, name, request };
      const timer = setTimeout(() => fail(id, 'TIMEOUT', `no answer to ${name} within ${timeoutMs} ms`), timeoutMs);
      pending.set(id, { resolve, frame: JSON.stringify(frame), sent: false, timer });
      flush();
    });

  connect();

  const api = buildApi({
    call,
    subscribe(listener) {
      pushListeners.add(listener);
      return () => pushListeners.delete(listener);
    },
    onInvalidPush: (error) => options.onProtocolError?.(error),
  }, options.validators);

  return {
    ...api,
    close() {
      if (closed) return;
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      if (silenceTimer) clearTimeout(silenceTimer);
      for (const id of [...pending.keys()]) fail(id, 'CLOSED', 'the WebSocket client was closed');
      socket?.close(1000, 'client closed');
    },
  };
}
