import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groupAlerts, groupTitle } from '../view-model/alerts/alert-fold.js';
import { alert } from './fixtures.js';

test('alerts of one kind fold into one group naming how many of the data nodes and which', () => {
  const memory = Array.from({ length: 141 }, (_, i) => alert(`m${i}`, { kind: 'memory-critical', severity: 'critical', nodeId: 144 - i, at: 1000 + i }));
  const down = alert('d', { kind: 'node-down', severity: 'critical', nodeId: 2 });
  const groups = groupAlerts([down, ...memory, alert('g', { kind: 'node-group-degraded', nodeId: null })]);
  assert.deepEqual(groups.map((g) => [g.kind, g.alerts.length]), [['node-down', 1], ['memory-critical', 141], ['node-group-degraded', 1]]);
  assert.equal(groupTitle(groups[1]!, 144), 'memory ≥ 90 % used on 141 of 144 data nodes: 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, …');
  assert.equal(groupTitle(groups[2]!, 144), 'node group degraded: 1 alert');
});
