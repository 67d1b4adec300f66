import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PushMessage } from '../../contract/channels.js';
import { dispatchRequest } from '../../serve/bridge.js';
import { createFixtureEngine, FIXTURE_SNAPSHOT } from '../../serve/test/fixture-engine.js';
import { createPreloadApi, type RendererIpc } from '../preload-api.js';
import { PUSH_CHANNEL, REQUEST_CHANNEL_PREFIX } from '../../contract/channels.js';

/**
 * Electron's IPC cannot run here; this stands in for ipcRenderer ↔ ipcMain with the same channel names, routed
 * into the real bridge the main process uses, so the preload's mapping and validation are what is tested.
 */
function loopbackIpc(engine: ReturnType<typeof createFixtureEngine>): RendererIpc & { invoked: string[] } {
  const invoked: string[] = [];
  const listeners = new Map<(e: unknown, p: unknown) => void, () => void>();
  return {
    invoked,
    async invoke(channel, request) {
      invoked.push(channel);
      return dispatchRequest(engine.handlers, channel.slice(REQUEST_CHANNEL_PREFIX.length), request);
    },
    on(channel, listener) {
      assert.equal(channel, PUSH_CHANNEL);
      listeners.set(listener, engine.subscribe((m) => listener(null, m)));
    },
    removeListener(_channel, listener) {
      listeners.get(listener)?.();
      listeners.delete(listener);
    },
  };
}

test('one fixed channel per request; answers and errors come back as the contract says', async () => {
  const engine = createFixtureEngine();
  const ipc = loopbackIpc(engine);
  const api = createPreloadApi(ipc);
  assert.deepEqual(await api.getSnapshot({}), FIXTURE_SNAPSHOT);
  await assert.rejects(api.runAction({ action: { kind: 'start', nodeId: 1 } }), /^NdbtopRequestError: ACTIONS_DISABLED: operator actions are disabled$/);
  assert.deepEqual(ipc.invoked, ['ndbtop:getSnapshot', 'ndbtop:runAction']);
});

test('pushes reach every listener once, invalid ones are dropped, unsubscribing detaches from IPC', async () => {
  const engine = createFixtureEngine();
  const api = createPreloadApi(loopbackIpc(engine));
  const a: PushMessage[] = [];
  const b: PushMessage[] = [];
  const offA = api.onPush((m) => a.push(m));
  const offB = api.onPush((m) => b.push(m));
  assert.equal(engine.subscribers, 1);
  engine.push({ type: 'clusters', clusters: [] });
  engine.push({ type: 'nonsense' } as unknown as PushMessage);
  offA();
  offB();
  assert.equal(engine.subscribers, 0);
  assert.deepEqual(a, [{ type: 'clusters', clusters: [] }]);
  assert.deepEqual(b, a);
});

test('a main-process answer outside the contract is an error, not data', async () => {
  const api = createPreloadApi({ invoke: async () => ({ hello: 1 }), on: () => undefined, removeListener: () => undefined });
  await assert.rejects(api.getAppInfo({}), /BAD_MESSAGE/);
});
