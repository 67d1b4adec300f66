import type { EngineHandlers, WireError } from '../../contract/page-safe/api.js';
import type { RequestName, ResponseOf } from '../../contract/schemas/channels.js';
import { dispatchRequest as callEngine } from '../../engine/core/dispatch.js';

export type BridgeResult<K extends RequestName = RequestName> = { ok: true; response: ResponseOf<K> } | { ok: false; error: WireError };

/** The code of a message that does not match the contract (ContractError's own code). */
export const BAD_MESSAGE = 'BAD_MESSAGE';
/** Code of an engine failure that carries no code of its own. */
export const ENGINE_ERROR = 'ENGINE_ERROR';

/** ContractError and the engine's EngineRequestError carry their `code`; anything else is ENGINE_ERROR. */
export function toWireError(err: unknown): WireError {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return { code: typeof code === 'string' && code.length > 0 ? code : ENGINE_ERROR, message: err.message };
  }
  return { code: ENGINE_ERROR, message: String(err) };
}

/**
 * The one place where an untrusted `{ name, request }` from a transport becomes a call into the engine:
 * Electron IPC and the WebSocket server both come through here. Validation is the engine's dispatch (the
 * contract's parseRequest); this adds only the shape transports need: never throws, every failure is data.
 */
export async function dispatchRequest(handlers: EngineHandlers, name: unknown, request: unknown): Promise<BridgeResult> {
  try {
    return { ok: true, response: await callEngine(handlers, name, request) };
  } catch (err) {
    return { ok: false, error: toWireError(err) };
  }
}
