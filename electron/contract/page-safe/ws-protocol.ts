import type { WireError } from './api.js';
import { PUSH_CHANNEL } from './vocabulary.js';

/**
 * Envelopes of the contract on a WebSocket, one JSON text frame each. Browser-safe (no node imports): the
 * renderer's WebSocket client and the server both build and read frames with these.
 *
 *   client → server  { id, name, request }
 *   server → client  { type: 'ndbtop:response', id, ok: true, response } | { …, ok: false, error }
 *                    { type: 'ndbtop:push', message }
 *                    { type: 'ndbtop:heartbeat', at, intervalMs }  every intervalMs (with a WebSocket ping, which
 *                        page scripts cannot see): a page that hears nothing for a few intervals has lost the
 *                        server, even when TCP has not noticed; the dashboard's connection-loss display uses it.
 *                    { type: 'ndbtop:resync' }  this client fell behind and pushes were dropped for it: ask for a
 *                        full snapshot, as after a reconnect.
 * A frame the server cannot read at all is answered with `id: null`, so the client can report it.
 */
export const RESPONSE_TAG = 'ndbtop:response';
export const PUSH_TAG = PUSH_CHANNEL;
export const HEARTBEAT_TAG = 'ndbtop:heartbeat';
export const RESYNC_TAG = 'ndbtop:resync';

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

export interface HeartbeatFrame {
  type: typeof HEARTBEAT_TAG;
  /** Server time of sending (ms since epoch). */
  at: number;
  /** The next one follows this long after. */
  intervalMs: number;
}

export interface ResyncFrame {
  type: typeof RESYNC_TAG;
}

export type ServerFrame = ResponseFrame | PushFrame | HeartbeatFrame | ResyncFrame;

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
export function readServerFrame(text: string): ServerFrame | { invalid: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { invalid: 'server frame is not JSON' };
  }
  if (!isRecord(value)) return { invalid: 'server frame is not a JSON object' };
  if (value.type === PUSH_TAG) return { type: PUSH_TAG, message: value.message };
  if (value.type === RESYNC_TAG) return { type: RESYNC_TAG };
  if (value.type === HEARTBEAT_TAG) {
    const { at, intervalMs } = value;
    if (typeof at !== 'number' || typeof intervalMs !== 'number' || !(intervalMs > 0)) return { invalid: 'heartbeat without at/intervalMs' };
    return { type: HEARTBEAT_TAG, at, intervalMs };
  }
  if (value.type !== RESPONSE_TAG) return { invalid: `server frame of unknown type ${JSON.stringify(value.type)}` };
  const id = value.id === null || Number.isSafeInteger(value.id) ? (value.id as number | null) : undefined;
  if (id === undefined) return { invalid: 'response frame without id' };
  if (value.ok === true) return { type: RESPONSE_TAG, id, ok: true, response: value.response };
  if (value.ok === false && isWireError(value.error)) return { type: RESPONSE_TAG, id, ok: false, error: value.error };
  return { invalid: 'response frame is neither ok nor a wire error' };
}
