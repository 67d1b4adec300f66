import assert from 'node:assert/strict';
import { freePort } from '../../../native-mgm/test/free-port.js';
import { test } from 'node:test';
import type { ClusterSnapshot } from '../../contract/schemas/snapshot.js';
import { createEngine } from '../../engine/create-engine.js';
import { startServeServer } from '../serve-server.js';
import { httpGet } from './helpers.js';

async function snapshotAt(port: number): Promise<ClusterSnapshot> {
  const res = await httpGet(port, '/api/snapshot');
  assert.equal(res.status, 200);
  return JSON.parse(res.body) as ClusterSnapshot;
}

test('serve listens once the engine has its first status: the first snapshot a page gets has the nodes', async (t) => {
  // 255 nodes: the configuration read before the first `get status` takes a while, so listening at once would
  // hand out a snapshot without nodes.
  const engine = await createEngine({ host: 'serve', pollIntervalMs: 1000, simulator: { scenario: 'idle', dataNodes: 144, mgmNodes: 2, apiNodes: 109, replicas: 2 } });
  t.after(() => engine.close());
  const server = await startServeServer({ engine, staticDir: '/nonexistent', port: 0, readyWithinMs: 60_000 });
  t.after(() => server.close());
  const snapshot = await snapshotAt(server.port);
  assert.equal(snapshot.nodes.length, 255);
});

test('a cluster that cannot be reached delays listening only until the engine knows why', async (t) => {
  const port = await freePort();
  const engine = await createEngine({ host: 'serve', simulator: false, clusters: [{ name: 'down', connectstring: `127.0.0.1:${port}` }], pollIntervalMs: 1000 });
  t.after(() => engine.close());
  const started = Date.now();
  const server = await startServeServer({ engine, staticDir: '/nonexistent', port: 0, readyWithinMs: 60_000 });
  t.after(() => server.close());
  assert.ok(Date.now() - started < 30_000, 'listening did not wait for the cap');
  const snapshot = await snapshotAt(server.port);
  assert.equal(snapshot.nodes.length, 0);
  assert.match(String(snapshot.connection.lastError), /ECONNREFUSED/);
});
