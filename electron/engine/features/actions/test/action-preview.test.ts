import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterSnapshot, NodeView } from '../../../../contract/index.js';
import { previewAction } from '../action-preview.js';
import { nodeGroups } from '../../../cluster/node-groups.js';

function node(nodeId: number, status: NodeView['status'], nodeGroup: number): NodeView {
  return {
    nodeId, type: 'NDB', status, statusRaw: status, startPhase: 0, nodeGroup, version: '9.0.0', versionRaw: 0, mysqlVersion: null, address: null, connectCount: 1,
    dynamicId: nodeId, isSingleUser: null, isMaster: false, statusSince: 0, restart: null, safeToStop: null, memory: { data: null, index: null }, rates: null,
  };
}

function cluster(nodes: NodeView[], extra: Partial<ClusterSnapshot> = {}): ClusterSnapshot {
  return {
    clusterId: 'c1', name: 't', sampledAt: 0, masterNodeId: null, singleUserApiNodeId: null, rates: null, backup: null, alerts: [], nodes,
    nodeGroups: nodeGroups(nodes.map((n) => ({ nodeId: n.nodeId, status: n.status, nodeGroup: n.nodeGroup }))),
    connection: { mode: 'simulated', status: 'live', connectstring: 'x', mgmd: null, serverVersion: null, failovers: 0, lastError: null, eventStream: { status: 'live' } },
    ...extra,
  };
}

const stop2 = { kind: 'stop', nodeId: 2, abort: false } as const;

test('preview in words: safe stop keeps the group live, the master and a running backup are named', () => {
  const p = previewAction(stop2, cluster([node(2, 'STARTED', 0), node(3, 'STARTED', 0)], { masterNodeId: 2, backup: { backupId: 12, status: 'running', startedAt: 0, finishedAt: null, bytes: 0, records: 0, error: null } }), true);
  assert.equal(p.safe, true);
  assert.equal(p.possible, true);
  assert.deepEqual(p.consequences, ['node group 0 keeps 1 of 2 nodes live', 'node 2 is the master: a new master will be elected', 'backup 12 is running: stopping a data node makes it fail']);
});

test('preview: the last live node of a group is unsafe with the consequence; a node gone is impossible', () => {
  const lastLive = previewAction(stop2, cluster([node(2, 'STARTED', 0), node(3, 'NO_CONTACT', 0)]), true);
  assert.equal(lastLive.safe, false);
  assert.equal(lastLive.possible, true);
  assert.equal(lastLive.warnings[0], 'node group 0 will have no live node: the cluster will shut down');
  assert.match(lastLive.warnings[1] ?? '', /^node 2 is the last live node of node group 0: .*5028/);
  const gone = previewAction(stop2, cluster([node(2, 'NO_CONTACT', 0), node(3, 'STARTED', 0)]), true);
  assert.equal(gone.possible, false);
  assert.equal(previewAction(stop2, cluster([node(3, 'STARTED', 0)]), true).possible, false);
});

test('preview: NoOfReplicas, when known, is the group size a degraded group is measured against', () => {
  const nodes = [node(2, 'STARTED', 0), node(3, 'STARTED', 0), node(4, 'NO_CONTACT', 0)];
  const p = previewAction(stop2, cluster(nodes), true, { noOfReplicas: 3 });
  assert.equal(p.safe, false);
  assert.match(p.warnings[0] ?? '', /already degraded \(2 of 3 up\): node group 0 keeps 1 of 3 nodes live/);
});
