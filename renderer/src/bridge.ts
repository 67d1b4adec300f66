import { createWebSocketApi } from '../../electron/serve/ws-client.js';
import { webSocketTarget } from './bridge-target.js';
import type { NdbtopApi } from './contract.js';

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in a browser. */
    ndbtop?: NdbtopApi;
  }
}

export interface Bridge {
  api: NdbtopApi;
  /**
   * Called when the transport came back after a loss, or the server dropped pushes for this page because it fell
   * behind (pushes in between are gone, so the UI must resync).
   * Electron IPC never drops, so there it is never called.
   */
  onReconnect(listener: () => void): void;
}

/** The preload's API in the desktop app, else the WebSocket client of serve mode. */
export function connectBridge(): Bridge {
  if (window.ndbtop) return { api: window.ndbtop, onReconnect: () => undefined };
  const listeners = new Set<() => void>();
  let lost = false;
  const { url, token } = webSocketTarget(window.location);
  const api = createWebSocketApi(url, token, {
    onStatus(status) {
      if (status === 'closed') lost = true;
      if (status === 'open' && lost) {
        lost = false;
        for (const l of listeners) l();
      }
    },
    // The server dropped pushes for this page (it fell behind): the same full resync as after a reconnect.
    onResync() {
      for (const l of listeners) l();
    },
  });
  return { api, onReconnect: (l) => void listeners.add(l) };
}
