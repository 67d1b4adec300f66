import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PolledCluster, dataMemoryEvent as memory } from '../../../test/tracker-fixture.js';


test('a held memory alert says its peak and the use now; a node-down alert says the node\'s status now', () => {
  const cluster = new PolledCluster(2);
  const { tracker } = cluster;
  cluster.poll(0);
  tracker.apply({ kind: 'event', t: 1000, event: memory(1, 1000, 93) });
  // Down to 78 %: the hysteresis holds the critical alert for a while, and it must not read "93 % used" meanwhile.
  tracker.apply({ kind: 'memory', t: 16_000, events: [memory(1, 16_000, 78), memory(2, 16_000, 30)] });
  const held = tracker.snapshot().alerts.find((a) => a.kind === 'memory-critical');
  assert.equal(held?.resolvedAt, null);
  assert.equal(held?.message, 'Node 1: data memory peak 93%, now 78% used (≥ 90 %)');

  cluster.set(2, 'NO_CONTACT').poll(20_000);
  assert.match(tracker.snapshot().alerts.find((a) => a.kind === 'node-down')?.message ?? '', /\(now NO_CONTACT\)$/);
  cluster.set(2, 'STARTING').poll(25_000);
  assert.match(tracker.snapshot().alerts.find((a) => a.kind === 'node-down')?.message ?? '', /\(now STARTING\)$/, 'the text follows the node');
});
