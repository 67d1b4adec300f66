import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groupAlerts, groupTitle } from '../../view-model/alerts/alert-fold.js';
import { alert } from '../fixtures.js';

test('alerts of one kind fold into one group naming how many of the data nodes and which', () => {
  const memory = Array.from({ length: 141 }, (_, i) => alert(`m${i}`, { kind: 'memory-critical', severity: 'critical', nodeId: 144 - i, at: 1000 + i }));
  const down = alert('d', { kind: 'node-down', severity: 'critical', nodeId: 2 });
  const groups = groupAlerts([down, ...memory, alert('g', { kind: 'node-group-degraded', nodeId: null })]);
  assert.deepEqual(groups.map((g) => [g.kind, g.alerts.length]), [['node-down', 1], ['memory-critical', 141], ['node-group-degraded', 1]]);
  assert.equal(groupTitle(groups[1]!, 144), 'memory ≥ 90 % used on 141 of 144 data nodes: 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, …');
  assert.equal(groupTitle(groups[2]!, 144), 'node group degraded: 1 alert');
});

test('a memory group says the nodes’ use now, and that it was over the mark once all are back under it while the hysteresis holds', () => {
  const held = [3, 4, 5].map((id) => alert(`h${id}`, { kind: 'memory-high', severity: 'warning', nodeId: id }));
  const [group] = groupAlerts(held);
  assert.ok(group);
  const uses = new Map([[3, 73.2], [4, 74.6], [5, 75.4]]);
  assert.equal(groupTitle(group, 144, (id) => uses.get(id) ?? null), 'memory was ≥ 80 % on 3 of 144 data nodes, now 73–75 %: 3, 4, 5');
  // One still over the mark (as its tile rounds it): the alert is current, and says so.
  uses.set(5, 79.6);
  assert.equal(groupTitle(group, 144, (id) => uses.get(id) ?? null), 'memory ≥ 80 % used on 3 of 144 data nodes, now 73–80 %: 3, 4, 5');
  // A node without a current report: nothing is claimed of it, so not "was".
  uses.set(5, 70);
  assert.equal(groupTitle(group, 144, (id) => (id === 4 ? null : (uses.get(id) ?? null))), 'memory ≥ 80 % used on 3 of 144 data nodes, now 70–73 %: 3, 4, 5');
  // Not memory: no use.
  const [down] = groupAlerts([alert('d1', { kind: 'node-down', severity: 'critical', nodeId: 3 }), alert('d2', { kind: 'node-down', severity: 'critical', nodeId: 4 })]);
  assert.equal(groupTitle(down!, 4, () => 50), 'data node down without a requested stop on 2 of 4 data nodes: 3, 4');
});

test('a cluster-wide memory alert is a row of its own beside the per-node alerts of its kind, in its own words', () => {
  const wide = alert('w', { kind: 'memory-critical', severity: 'critical', nodeId: null, message: 'Data memory ≥ 90 % used on 70 of 144 data nodes (now 88–91 %)', clusterWide: { nodeIds: [1, 2, 3], of: 144 } });
  const skewed = [5, 6].map((id) => alert(`n${id}`, { kind: 'memory-critical', severity: 'critical', nodeId: id }));
  const groups = groupAlerts([wide, ...skewed]);
  assert.deepEqual(groups.map((g) => g.alerts.map((a) => a.id)), [['w'], ['n5', 'n6']]);
  assert.equal(groupTitle(groups[1]!, 144), 'memory ≥ 90 % used on 2 of 144 data nodes: 5, 6');
});
