import type { WireError } from '../contract/api.js';
import { PUSH_CHANNEL } from '../contract/channels.js';

/**
 * Envelopes of the contract on a WebSocket, one JSON text frame each. Browser-safe (no node imports): the
 * renderer's WebSocket client and the server both build and read frames with these.
 *
 *   client → server  { id, name, request }
 *   server → client  { type: 'ndbtop:response', id, ok: true, response } | { …, ok: false, error }
 *                    { type: 'ndbtop:push', message }
 *                    { type: 'ndbtop:heartbeat' }   (every HEARTBEAT_MS, so a silent server is told from a quiet one)
 * A frame the server cannot read at all is answered with `id: null`, so the client can report it.
 */
export const RESPONSE_TAG = 'ndbtop:response';
export const PUSH_TAG = PUSH_CHANNEL;
export const HEARTBEAT_TAG = 'ndbtop:heartbeat';
/** The server's beat; a client hearing nothing for a few of them treats the connection as lost. */
export const HEARTBEAT_MS = 500;

export interface HeartbeatFrame {
  type: typeof HEARTBEAT_TAG;
}

export interface RequestFrame {
  id: number;
  name: string;
  request: unknown;
}

export type ResponseFrame = { type: typeof RESPONSE_TAG; id: number | null } & ({ ok: true; response: unknown } | { ok: false; error: WireError });

export interface PushFrame {
  type: typeof PUSH_TAG;
  message: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isWireError(value: unknown): value is WireError {
  return isRecord(value) && typeof value.code === 'string' && typeof value.message === 'string';
}

/** Server side: what a browser sent; a string explains why it is not a request frame. */
export function readRequestFrame(text: string): RequestFrame | { invalid: string; id: number | null } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { invalid: 'message is not JSON', id: null };
  }
  if (!isRecord(value)) return { invalid: 'message is not a JSON object', id: null };
  const id = Number.isSafeInteger(value.id) ? (value.id as number) : null;
  if (id === null) return { invalid: 'message has no integer "id"', id: null };
  if (typeof value.name !== 'string') return { invalid: 'message has no string "name"', id };
  return { id, name: value.name, request: value.request };
}

/** Client side: a server frame, or a string saying why it is not one. */
export function readServerFrame(text: string): ResponseFrame | PushFrame | HeartbeatFrame | { invalid: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { invalid: 'server frame is not JSON' };
  }
  if (!isRecord(value)) return { invalid: 'server frame is not a JSON object' };
  if (value.type === PUSH_TAG) return { type: PUSH_TAG, message: value.message };
  if (value.type === HEARTBEAT_TAG) return { type: HEARTBEAT_TAG };
  if (value.type !== RESPONSE_TAG) return { invalid: `server frame of unknown type ${JSON.stringify(value.type)}` };
  const id = value.id === null || Number.isSafeInteger(value.id) ? (value.id as number | null) : undefined;
  if (id === undefined) return { invalid: 'response frame without id' };
  if (value.ok === true) return { type: RESPONSE_TAG, id, ok: true, response: value.response };
  if (value.ok === false && isWireError(value.error)) return { type: RESPONSE_TAG, id, ok: false, error: value.error };
  return { invalid: 'response frame is neither ok nor a wire error' };
}
