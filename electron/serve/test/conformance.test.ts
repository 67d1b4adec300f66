import assert from 'node:assert/strict';
import { test } from 'node:test';
import WebSocket from 'ws';
import { REQUESTS } from '../../contract/schemas/channels.js';
import { createPreloadApi } from '../../desktop/preload-api.js';
import { createWebSocketApi } from '../../../renderer/src/bridge/ws-client.js';
import { zodPageValidators } from '../../contract/schemas/validate.js';

// transport-conformance.ts proves the types; this proves the objects built at run time carry the same methods.
test('preload and WebSocket client expose one function per request plus onPush, nothing else', () => {
  const expected = [...Object.keys(REQUESTS), 'onPush'].sort();
  const preload = createPreloadApi({ invoke: async () => undefined, on: () => undefined, removeListener: () => undefined }, zodPageValidators);
  assert.deepEqual(Object.keys(preload).sort(), expected);
  // Port 9 (discard) on loopback: nothing listens, and the client is closed before it would matter.
  const ws = createWebSocketApi('ws://127.0.0.1:9/ws', undefined, { validators: zodPageValidators, WebSocket });
  ws.close();
  assert.deepEqual(Object.keys(ws).sort(), [...expected, 'close'].sort());
  for (const key of expected) {
    assert.equal(typeof (preload as unknown as Record<string, unknown>)[key], 'function');
    assert.equal(typeof (ws as unknown as Record<string, unknown>)[key], 'function');
  }
});
