import type { EngineHandlers } from '../../contract/page-safe/api.js';
import type { RequestName, ResponseOf } from '../../contract/schemas/channels.js';
import { isRequestName, parseRequest } from '../../contract/schemas/validate.js';
import { ContractError } from '../../contract/page-safe/contract-error.js';

/**
 * For transports: checks an untrusted request name and payload against the contract before any handler sees
 * them, so a malformed message is rejected with a clear ContractError and never reaches the engine's state.
 */
export async function dispatchRequest(handlers: EngineHandlers, name: unknown, payload: unknown): Promise<ResponseOf<RequestName>> {
  if (!isRequestName(name)) throw new ContractError(`unknown request ${JSON.stringify(name)}`);
  const handler = handlers[name] as (request: unknown) => Promise<ResponseOf<RequestName>>;
  return handler(parseRequest(name, payload));
}
