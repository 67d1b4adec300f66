import type { NdbtopApi } from '../contract/page-safe/api.js';
import { PUSH_CHANNEL, REQUEST_CHANNEL_PREFIX } from '../contract/page-safe/vocabulary.js';
import type { PageValidators } from '../contract/page-safe/page-validators.js';
import { buildApi, type CallResult } from '../contract/page-safe/api-client.js';
import { isWireError } from '../contract/page-safe/ws-protocol.js';

/** The slice of Electron's ipcRenderer the preload uses; typed here so this module runs (and is tested) without Electron. */
export interface RendererIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
}

function asCallResult(value: unknown): CallResult {
  const v = value as Partial<{ ok: unknown; response: unknown; error: unknown }> | null;
  if (v?.ok === true && 'response' in v) return { ok: true, response: v.response };
  if (v?.ok === false && isWireError(v.error)) return { ok: false, error: v.error };
  return { ok: false, error: { code: 'BAD_MESSAGE', message: 'the main process answered outside the contract' } };
}

/**
 * What the preload exposes as `window.ndbtop`: one method per request, each a fixed IPC channel, and the push
 * subscription. The page never sees ipcRenderer itself, so it cannot reach any other channel.
 */
export function createPreloadApi(ipc: RendererIpc, validators: PageValidators): NdbtopApi {
  return buildApi({
    call: async (name, request) => asCallResult(await ipc.invoke(`${REQUEST_CHANNEL_PREFIX}${name}`, request)),
    subscribe(listener) {
      const onMessage = (_event: unknown, payload: unknown): void => listener(payload);
      ipc.on(PUSH_CHANNEL, onMessage);
      return () => void ipc.removeListener(PUSH_CHANNEL, onMessage);
    },
    onInvalidPush: (error) => console.error(`ndbtop: push dropped: ${error.message}`),
  }, validators);
}
