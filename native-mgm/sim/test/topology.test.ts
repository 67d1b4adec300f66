import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startSimulator } from '../index.js';
import { buildTopology } from '../state/topology.js';

test('topology limits are checked with clear errors', async () => {
  assert.throws(() => buildTopology({ dataNodes: 3, replicas: 2 }), /multiple of replicas/);
  assert.throws(() => buildTopology({ dataNodes: 145 }), /dataNodes must be an integer in 1\.\.144/);
  assert.throws(() => buildTopology({ replicas: 5, dataNodes: 5 }), /replicas must be an integer in 1\.\.4/);
  assert.throws(() => buildTopology({ mgmNodes: 3 }), /mgmNodes/);
  assert.throws(() => buildTopology({ dataNodes: 144, replicas: 4, mgmNodes: 2, apiNodes: 110 }), /256 nodes in all, above the limit of 255/);
  assert.throws(() => buildTopology({ version: '8.4' }), /not a version/);
  assert.throws(() => buildTopology({ apiNodes: 2, connectedApiNodes: 3 }), /connectedApiNodes/);
  await assert.rejects(startSimulator({ dataNodes: 0 }), /dataNodes/);
});

test('node ids: mgmd first, data nodes, then API slots; node groups by replica count', () => {
  const t = buildTopology({ dataNodes: 4, replicas: 2, mgmNodes: 2, apiNodes: 3, connectedApiNodes: 1, version: '9.1.0' });
  assert.deepEqual(t.mgm.map((m) => m.id), [1, 2]);
  assert.deepEqual(t.data.map((d) => [d.id, d.nodeGroup]), [[3, 0], [4, 0], [5, 1], [6, 1]]);
  assert.deepEqual(t.api.map((a) => [a.id, a.connected]), [[7, true], [8, false], [9, false]]);
  assert.equal(t.version, 590080);
});
