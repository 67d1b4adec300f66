import type { EngineHandlers, WireError } from '../../contract/page-safe/api.js';
import type { RequestName, ResponseOf } from '../../contract/schemas/channels.js';
import { dispatchRequest as callEngine } from '../../engine/core/dispatch.js';
import { answerable, internalError, stderrLog, type ErrorLog } from './internal-error.js';

export type BridgeResult<K extends RequestName = RequestName> = { ok: true; response: ResponseOf<K> } | { ok: false; error: WireError };

/** The code of a message that does not match the contract (ContractError's own code). */
export const BAD_MESSAGE = 'BAD_MESSAGE';

/**
 * Who reads a failure: serve's browsers may not learn the server's paths, SQL or hosts; the desktop's page is its
 * operator's own, on a machine whose stderr nobody sees (a Windows app has none), so it is told the detail too.
 */
export type Audience = 'remote' | 'operator';

/** An error written for the client crosses with its code and message; any other is logged and crosses as INTERNAL. */
export function toWireError(err: unknown, log: ErrorLog = stderrLog, audience: Audience = 'remote'): WireError {
  const shown = answerable(err);
  if (shown) return shown;
  const internal = internalError(err, log);
  const detail = audience === 'operator' && err instanceof Error ? `${err.message} (${internal.id})` : null;
  return { code: internal.code, message: detail ?? internal.message };
}

/**
 * The one place where an untrusted `{ name, request }` from a transport becomes a call into the engine:
 * Electron IPC and the WebSocket server both come through here. Validation is the engine's dispatch (the
 * contract's parseRequest); this adds only the shape transports need: never throws, every failure is data.
 */
export async function dispatchRequest(handlers: EngineHandlers, name: unknown, request: unknown, log: ErrorLog = stderrLog, audience: Audience = 'remote'): Promise<BridgeResult> {
  try {
    return { ok: true, response: await callEngine(handlers, name, request) };
  } catch (err) {
    return { ok: false, error: toWireError(err, log, audience) };
  }
}
