import type { NdbtopApi } from '../../../electron/contract/page-safe/api.js';
import type { createPreloadApi } from '../../../electron/desktop/preload-api.js';
import type { createWebSocketApi } from './ws-client.js';

/**
 * Compile-time proof that both transports offer exactly the contract's API: the preload's `window.ndbtop` and
 * the WebSocket client. Adding a request to REQUESTS without both growing it, or changing a signature on one
 * side only, fails `tsc`. (The WebSocket client may add `close()`; nothing else.)
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;

type PreloadApi = ReturnType<typeof createPreloadApi>;
type WebSocketClientApi = ReturnType<typeof createWebSocketApi>;

export type PreloadIsNdbtopApi = Assert<Same<PreloadApi, NdbtopApi>>;
export type WebSocketClientIsNdbtopApi = Assert<Same<Omit<WebSocketClientApi, 'close'>, NdbtopApi>>;
export type BothTransportsAgree = Assert<Same<Omit<WebSocketClientApi, 'close'>, PreloadApi>>;
