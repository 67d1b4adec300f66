import type { NdbtopApi, WireError } from './api.js';
import type { PushMessage, RequestName } from '../schemas/channels.js';
import type { PageValidators } from './page-validators.js';
import { visibleStrings, visibleText } from './outside-text.js';

/**
 * A request the engine (or the transport) refused. The code leads the message because Electron's contextBridge
 * copies only `message` of a rejected Error into the page.
 */
export class NdbtopRequestError extends Error {
  readonly code: string;
  constructor(error: WireError) {
    super(`${error.code}: ${visibleText(error.message)}`);
    this.name = 'NdbtopRequestError';
    this.code = error.code;
  }
}

/**
 * Pushes that carry nothing from outside: a history push is numbers under the engine's own metric names (the page
 * looks them up, never shows them), and it comes every second per cluster, with a key per node and figure.
 */
const ENGINE_MADE: ReadonlySet<PushMessage['type']> = new Set(['history']);

/** What a transport delivers for one request: the bridge's result, already unwrapped from its envelope. */
export type CallResult = { ok: true; response: unknown } | { ok: false; error: WireError };

export interface ApiTransport {
  call(name: RequestName, request: unknown): Promise<CallResult>;
  /** Raw push payloads as they arrived; validated here, once, for every listener. */
  subscribe(listener: (raw: unknown) => void): () => void;
  /** A push that failed validation: a version skew or a bug, reported rather than rendered. */
  onInvalidPush?(error: Error): void;
}

/**
 * The UI side of both transports (preload and WebSocket): one method per request of the contract, responses
 * and pushes validated against it, their strings under the outside-text rule (what the page shows, it shows
 * visibly; pushes with nothing from outside are not walked for it). Building both from this one function is what keeps them the same API.
 */
export function buildApi(transport: ApiTransport, validators: PageValidators): NdbtopApi {
  const methods: Record<string, (request: unknown) => Promise<unknown>> = {};
  for (const name of validators.requestNames) {
    methods[name] = async (request) => {
      const result = await transport.call(name, request ?? {});
      if (!result.ok) throw new NdbtopRequestError(result.error);
      return visibleStrings(validators.response(name, result.response));
    };
  }

  const listeners = new Set<(message: PushMessage) => void>();
  let unsubscribeRaw: (() => void) | null = null;
  const onRaw = (raw: unknown): void => {
    let message: PushMessage;
    try {
      const valid = validators.push(raw);
      message = ENGINE_MADE.has(valid.type) ? valid : visibleStrings(valid);
    } catch (err) {
      transport.onInvalidPush?.(err as Error);
      return;
    }
    for (const listener of [...listeners]) listener(message);
  };
  const onPush = (listener: (message: PushMessage) => void): (() => void) => {
    listeners.add(listener);
    unsubscribeRaw ??= transport.subscribe(onRaw);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && unsubscribeRaw) {
        unsubscribeRaw();
        unsubscribeRaw = null;
      }
    };
  };
  // The loop above fills exactly the contract's requests, each with its response check; the mapped type
  // cannot be built key by key without this one widening.
  return { ...methods, onPush } as unknown as NdbtopApi;
}
