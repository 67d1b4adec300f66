import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mergeNodes, perNodeMap } from '../../store/node-map.js';
import { createAppStore } from '../../store/store.js';
import { nodeView, snapshot } from '../fixtures.js';

test('what is derived from the node map is derived once per map: pushes that leave the nodes alone cost nothing', () => {
  const store = createAppStore();
  store.receive({ type: 'snapshot', version: 1, snapshot: snapshot([1, 2, 3].map((id) => nodeView(id))) });
  let computed = 0;
  const ids = perNodeMap((nodes) => {
    computed += 1;
    return [...nodes.keys()].join(',');
  });
  // Two components selecting it on every store change.
  const select = () => [ids(store.getState().shown.nodes), ids(store.getState().shown.nodes)];
  assert.deepEqual(select(), ['1,2,3', '1,2,3']);
  assert.equal(computed, 1);
  store.receive({ type: 'history', clusterId: 'c1', points: [{ at: 1000, values: { 'node.1.transactions': 5 } }] });
  store.receive({ type: 'delta', delta: { clusterId: 'c1', baseVersion: 1, version: 2, nodes: [nodeView(2)] } });
  select();
  assert.equal(computed, 1, 'a history point and a delta repeating a node as it was leave the map, so nothing is derived again');
  store.receive({ type: 'delta', delta: { clusterId: 'c1', baseVersion: 2, version: 3, nodes: [nodeView(4)] } });
  assert.deepEqual(select(), ['1,2,3,4', '1,2,3,4']);
  assert.equal(computed, 2);
});

test('a merge touches only the nodes it carries: unchanged ones keep their objects, removals and additions land in id order', () => {
  const prev = new Map([1, 2, 3].map((id) => [id, nodeView(id)] as const));
  assert.equal(mergeNodes(prev, [nodeView(1), nodeView(3)]), prev, 'nothing changed: the same map');
  assert.equal(mergeNodes(prev, [], [9]), prev, 'removing a node that is not there changes nothing');
  const next = mergeNodes(prev, [nodeView(2, { status: 'NO_CONTACT' }), nodeView(0)], [3]);
  assert.deepEqual([...next.keys()], [0, 1, 2]);
  assert.equal(next.get(1), prev.get(1));
  assert.equal(next.get(2)?.status, 'NO_CONTACT');
  const replaced = mergeNodes(next, [nodeView(1), nodeView(2, { status: 'NO_CONTACT' })], [], true);
  assert.deepEqual([...replaced.keys()], [1, 2], 'a full snapshot drops the nodes it does not list');
  assert.equal(replaced.get(1), prev.get(1));
});
