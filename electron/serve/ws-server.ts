import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { EngineHost } from '../engine/engine-host.js';
import { admit } from './auth.js';
import { BAD_MESSAGE, dispatchRequest } from './bridge.js';
import { HEARTBEAT_MS, HEARTBEAT_TAG, PUSH_TAG, readRequestFrame, RESPONSE_TAG, type HeartbeatFrame, type PushFrame, type ResponseFrame } from './ws-protocol.js';

export const WS_PATH = '/ws';
/** Requests are small; anything bigger is a mistake or an attack. */
const MAX_FRAME_BYTES = 1 << 20;
/** A client that cannot keep up with pushes is dropped; it reconnects and asks for a full snapshot. */
const MAX_BUFFERED_BYTES = 16 << 20;

function reject(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${reason.length}\r\n\r\n${reason}`);
}

function send(ws: WebSocket, frame: ResponseFrame | PushFrame | HeartbeatFrame): void {
  if (ws.readyState !== ws.OPEN) return;
  if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
    ws.terminate();
    return;
  }
  ws.send(JSON.stringify(frame));
}

async function answer(engine: EngineHost, ws: WebSocket, data: RawData, isBinary: boolean): Promise<void> {
  if (isBinary) {
    send(ws, { type: RESPONSE_TAG, id: null, ok: false, error: { code: BAD_MESSAGE, message: 'binary frames are not part of the contract' } });
    return;
  }
  const frame = readRequestFrame(data.toString());
  if ('invalid' in frame) {
    send(ws, { type: RESPONSE_TAG, id: frame.id, ok: false, error: { code: BAD_MESSAGE, message: frame.invalid } });
    return;
  }
  const result = await dispatchRequest(engine.handlers, frame.name, frame.request);
  send(ws, { type: RESPONSE_TAG, id: frame.id, ...result });
}

/**
 * The contract over WebSocket on `server`'s `/ws`: the token (if any) and the Origin are checked before the
 * upgrade, every request goes through the shared bridge, every subscriber gets the engine's pushes.
 */
export function attachWebSocket(server: Server, engine: EngineHost, token: string | undefined): { close(): void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== WS_PATH) return reject(socket, 404, 'Not Found');
    const admission = admit(req, token);
    if (!admission.ok) return reject(socket, admission.status, admission.reason);
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  };
  server.on('upgrade', onUpgrade);
  // A quiet cluster pushes nothing for seconds: the beat is what tells a browser its server is still there.
  const heartbeat = setInterval(() => {
    for (const ws of wss.clients) send(ws, { type: HEARTBEAT_TAG });
  }, HEARTBEAT_MS);
  heartbeat.unref();

  wss.on('connection', (ws: WebSocket) => {
    const unsubscribe = engine.subscribe((message) => send(ws, { type: PUSH_TAG, message }));
    ws.on('message', (data, isBinary) => void answer(engine, ws, data, isBinary));
    ws.on('close', unsubscribe);
    // An oversized or broken frame closes that socket only; ws reports it here and the server keeps serving.
    ws.on('error', () => ws.terminate());
  });

  return {
    close() {
      server.off('upgrade', onUpgrade);
      clearInterval(heartbeat);
      for (const ws of wss.clients) ws.close(1001, 'server shutting down');
      wss.close();
    },
  };
}
