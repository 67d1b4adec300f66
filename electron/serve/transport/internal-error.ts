import { randomBytes } from 'node:crypto';
import type { EngineHandlers, WireError } from '../../contract/page-safe/api.js';
import { visibleText } from '../../contract/page-safe/outside-text.js';

/**
 * Codes of the errors whose message was written for whoever made the request: the contract's ContractError
 * (BAD_MESSAGE), the engine's EngineRequestError, RollingError, RunError, MaintenanceError and recording errors,
 * serve's own refusals. Any other error (a bug, a file system or driver error) may quote paths, SQL or host names
 * of the server: a client gets INTERNAL and an id, the server's log gets the detail.
 */
const ANSWERABLE = new Set(['BAD_MESSAGE', 'BAD_REQUEST', 'INVALID', 'NOT_FOUND', 'UNSUPPORTED', 'CONFLICT', 'FORBIDDEN', 'BAD_RECORDING', 'TOO_LARGE']);

/** Code of an error the server does not explain to its client. */
export const INTERNAL = 'INTERNAL';

/** Where the detail of an internal error goes: one line (with its stack) per error. */
export type ErrorLog = (line: string) => void;

export const stderrLog: ErrorLog = (line) => void process.stderr.write(`${line}\n`);

/** An error already logged: what a client may be told of it. */
export class InternalError extends Error {
  readonly code = INTERNAL;
  constructor(readonly id: string) {
    super(`internal error ${id}: the details are in the server's log`);
    this.name = 'InternalError';
  }
}

/** The error as a client may see it: itself when it was written for the client, else null. */
export function answerable(err: unknown): WireError | null {
  if (!(err instanceof Error)) return null;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && (ANSWERABLE.has(code) || (code === INTERNAL && err instanceof InternalError)) ? { code, message: err.message } : null;
}

/** Logs `err` in full under a fresh id (once: an InternalError was logged when it was made) and returns what a client is told. */
export function internalError(err: unknown, log: ErrorLog): InternalError {
  if (err instanceof InternalError) return err;
  const id = randomBytes(6).toString('hex');
  // The log may be a terminal: the detail can hold text from a cluster or a client.
  log(visibleText(`ndbtop serve: internal error ${id}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`));
  return new InternalError(id);
}

/**
 * `handlers` whose failures a client may not read are logged to `log` and become an InternalError: serve's
 * every route, the WebSocket and /metrics call the engine through these, so none can echo one.
 */
export function loggedHandlers(handlers: EngineHandlers, log: ErrorLog): EngineHandlers {
  const logged: Record<string, (request: unknown) => Promise<unknown>> = {};
  for (const [name, handler] of Object.entries(handlers) as Array<[string, (request: unknown) => Promise<unknown>]>) {
    logged[name] = async (request) => {
      try {
        return await handler(request);
      } catch (err) {
        throw answerable(err) ? err : internalError(err, log);
      }
    };
  }
  return logged as unknown as EngineHandlers;
}
