import type { EngineHandlers, WireError } from '../contract/api.js';
import type { RequestName, ResponseOf } from '../contract/channels.js';
import { ContractError, isRequestName, parseRequest } from '../contract/validate.js';

export type BridgeResult<K extends RequestName = RequestName> = { ok: true; response: ResponseOf<K> } | { ok: false; error: WireError };

/** Error codes a transport may put on the wire besides the engine's own. */
export const BRIDGE_ERROR = {
  UNKNOWN_REQUEST: 'UNKNOWN_REQUEST',
  BAD_MESSAGE: 'BAD_MESSAGE',
  ENGINE_ERROR: 'ENGINE_ERROR',
} as const;

/** An engine error may carry its own `code` (e.g. ACTIONS_DISABLED); anything else is reported as ENGINE_ERROR. */
export function toWireError(err: unknown): WireError {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return { code: typeof code === 'string' && code.length > 0 ? code : BRIDGE_ERROR.ENGINE_ERROR, message: err.message };
  }
  return { code: BRIDGE_ERROR.ENGINE_ERROR, message: String(err) };
}

/**
 * The one place where an untrusted `{ name, request }` becomes a call into the engine: Electron IPC and the
 * WebSocket server both come through here, so validation and error shaping cannot drift between transports.
 * Never throws; every failure is data.
 */
export async function dispatchRequest(handlers: EngineHandlers, name: unknown, request: unknown): Promise<BridgeResult> {
  if (!isRequestName(name)) {
    return { ok: false, error: { code: BRIDGE_ERROR.UNKNOWN_REQUEST, message: `unknown request ${JSON.stringify(name)}` } };
  }
  const known: RequestName = name;
  try {
    const parsed = parseRequest(known, request);
    // The table is indexed by the same name, so the handler's parameter type matches `parsed`; TypeScript cannot
    // correlate the two through the union, hence the widening.
    const handler = handlers[known] as (req: typeof parsed) => Promise<ResponseOf<RequestName>>;
    return { ok: true, response: await handler(parsed) };
  } catch (err) {
    if (err instanceof ContractError) return { ok: false, error: { code: err.code, message: err.message } };
    return { ok: false, error: toWireError(err) };
  }
}
