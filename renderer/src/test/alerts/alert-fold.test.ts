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

test('a level group says its nodes\' figures from the engine\'s level figures: their peak and the figures now once they moved', () => {
  const redo = (id: number, peak: number, now: number) => alert(`r${id}`, { kind: 'log-fill-critical', severity: 'critical', nodeId: id, level: { subject: 'redo log', unit: 'full', mark: 90, peak, now } });
  const [at] = groupAlerts([1, 2, 3, 4].map((id) => redo(id, 91 + id, 91 + id)));
  assert.equal(groupTitle(at!, 4), 'redo log 92–95 % full on 4 of 4 data nodes: 1, 2, 3, 4');
  // The case: the banner kept "≥ 90 % full on 4 of 4" while every node read about 1 %.
  const [fallen] = groupAlerts([1, 2, 3, 4].map((id) => redo(id, 95, id === 4 ? 1.4 : 0.9)));
  assert.equal(groupTitle(fallen!, 4), 'redo log peaked at 95 % on 4 of 4 data nodes, now 1 %: 1, 2, 3, 4');
  // Memory the same way, from its alerts' figures (not the tiles'): one node still over the mark.
  const memory = [[3, 82, 73.2], [4, 81, 74.6], [5, 80, 79.6]].map(([id, peak, now]) => alert(`m${id}`, { kind: 'memory-high', severity: 'warning', nodeId: id!, level: { subject: 'data memory', unit: 'used', mark: 80, peak: peak!, now: now! } }));
  assert.equal(groupTitle(groupAlerts(memory)[0]!, 144), 'data memory peaked at 82 % on 3 of 144 data nodes, now 73–80 %: 3, 4, 5');
  // Data and index memory in one group: both named.
  const mixed = [alert('x1', { kind: 'memory-critical', severity: 'critical', nodeId: 3, level: { subject: 'index memory', unit: 'used', mark: 90, peak: 93, now: 91 } }), alert('x2', { kind: 'memory-critical', severity: 'critical', nodeId: 4, level: { subject: 'data memory', unit: 'used', mark: 90, peak: 92, now: 92 } })];
  assert.equal(groupTitle(groupAlerts(mixed)[0]!, 4), 'data memory or index memory peaked at 93 % on 2 of 4 data nodes, now 91–92 %: 3, 4');
  // Not a level: no figures.
  const [down] = groupAlerts([alert('d1', { kind: 'node-down', severity: 'critical', nodeId: 3 }), alert('d2', { kind: 'node-down', severity: 'critical', nodeId: 4 })]);
  assert.equal(groupTitle(down!, 4), 'data node down without a requested stop on 2 of 4 data nodes: 3, 4');
});

test('a cluster-wide memory alert is a row of its own beside the per-node alerts of its kind, in its own words', () => {
  const wide = alert('w', { kind: 'memory-critical', severity: 'critical', nodeId: null, message: 'Data memory ≥ 90 % used on 70 of 144 data nodes (now 88–91 %)', clusterWide: { nodeIds: [1, 2, 3], of: 144 } });
  const skewed = [5, 6].map((id) => alert(`n${id}`, { kind: 'memory-critical', severity: 'critical', nodeId: id }));
  const groups = groupAlerts([wide, ...skewed]);
  assert.deepEqual(groups.map((g) => g.alerts.map((a) => a.id)), [['w'], ['n5', 'n6']]);
  assert.equal(groupTitle(groups[1]!, 144), 'memory ≥ 90 % used on 2 of 144 data nodes: 5, 6');
});
