import * as compiled from 'virtual:ndbtop-contract-validators';
import { compiledPageValidators } from '../../../electron/contract/page-safe/page-validators.js';
import { createWebSocketApi } from './ws-client.js';
import { webSocketTarget } from './bridge-target.js';
import type { NdbtopApi } from '../contract.js';
import type { Transport } from '../store/ui-slice.js';

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
  /** The link's state as it changes; Electron IPC is open from the start and stays so. */
  onTransport(listener: (transport: Transport) => void): void;
}

/** The preload's API in the desktop app, else the WebSocket client of serve mode. */
export function connectBridge(): Bridge {
  if (window.ndbtop) return { api: window.ndbtop, onReconnect: () => undefined, onTransport: (l) => l('open') };
  const listeners = new Set<() => void>();
  const transportListeners = new Set<(transport: Transport) => void>();
  let lost = false;
  let transport: Transport = 'connecting';
  const tell = (next: Transport): void => {
    transport = next;
    for (const l of transportListeners) l(next);
  };
  const { url, token } = webSocketTarget(window.location);
  // No heartbeat for three of serve's intervals (500 ms each) and the link counts as lost: the page says it is
  // disconnected within 2 s of a server that froze or a network path that died without closing.
  const api = createWebSocketApi(url, token, {
    validators: compiledPageValidators(compiled),
    onStatus(status) {
      if (status === 'closed') {
        lost = true;
        tell('lost');
      }
      if (status === 'open') {
        tell('open');
        if (lost) {
          lost = false;
          for (const l of listeners) l();
        }
      }
    },
    // The server dropped pushes for this page (it fell behind): the same full resync as after a reconnect.
    onResync() {
      for (const l of listeners) l();
    },
  });
  return {
    api,
    onReconnect: (l) => void listeners.add(l),
    onTransport(l) {
      transportListeners.add(l);
      l(transport);
    },
  };
}
