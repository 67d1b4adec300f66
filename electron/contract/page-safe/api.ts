import type { ParsedRequestOf, PushMessage, RequestName, RequestOf, ResponseOf } from '../schemas/channels.js';

/**
 * What the UI sees: one method per request, plus the push subscription. The preload bridge and the
 * WebSocket client both implement exactly this type, which is the compile-time proof that the two
 * transports offer the same API.
 */
export type NdbtopApi = { [K in RequestName]: (request: RequestOf<K>) => Promise<ResponseOf<K>> } & {
  onPush(listener: (message: PushMessage) => void): () => void;
};

/** What the engine side implements: requests arrive already validated and defaulted. */
export type EngineHandlers = { [K in RequestName]: (request: ParsedRequestOf<K>) => Promise<ResponseOf<K>> };

/** Errors cross the contract as data, never as thrown objects whose shape depends on the transport. */
export interface WireError {
  code: string;
  message: string;
}
