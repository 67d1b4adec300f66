import assert from 'node:assert/strict';
import { test } from 'node:test';
import WebSocket from 'ws';
import type { PushMessage } from '../../contract/schemas/channels.js';
import { startServeServer } from '../serve-server.js';
import { createWebSocketApi } from '../../../renderer/src/bridge/ws-client.js';
import { createFixtureEngine, FIXTURE_SNAPSHOT } from './fixture-engine.js';
import { makeStaticRoot, waitFor } from './helpers.js';
import { zodPageValidators } from '../../contract/schemas/validate.js';

test('a 255-node snapshot push with one bad field is rejected with an error saying where; the valid one after it arrives', async (t) => {
  const engine = createFixtureEngine();
  const dir = await makeStaticRoot();
  t.after(() => dir.cleanup());
  const server = await startServeServer({ engine, staticDir: dir.root, port: 0 });
  t.after(() => server.close());
  const errors: Error[] = [];
  const api = createWebSocketApi(`ws://127.0.0.1:${server.port}/ws`, undefined, { validators: zodPageValidators, WebSocket, onProtocolError: (e) => errors.push(e) });
  t.after(() => api.close());
  const got: PushMessage[] = [];
  api.onPush((m) => got.push(m));
  await waitFor(() => (engine.subscribers > 0 ? true : undefined), 'the page subscribed');

  const first = FIXTURE_SNAPSHOT.nodes[0];
  assert.ok(first);
  const nodes = Array.from({ length: 255 }, (_, i) => ({ ...first, nodeId: i + 1 }));
  const bad = nodes.map((n) => (n.nodeId === 200 ? { ...n, status: 'BOGUS' } : n));
  engine.push({ type: 'snapshot', version: 1, snapshot: { ...FIXTURE_SNAPSHOT, nodes: bad } } as unknown as PushMessage);
  engine.push({ type: 'snapshot', version: 2, snapshot: { ...FIXTURE_SNAPSHOT, nodes } });
  await waitFor(() => (got.length > 0 ? true : undefined), 'the valid push');

  assert.deepEqual(
    got.map((m) => (m.type === 'snapshot' ? [m.version, m.snapshot.nodes.length] : m.type)),
    [[2, 255]],
  );
  assert.equal(errors.length, 1);
  assert.match(errors[0]?.message ?? '', /^invalid push message at snapshot\.nodes\.199\.status: /);
});
