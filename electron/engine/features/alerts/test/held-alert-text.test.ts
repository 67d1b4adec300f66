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
  assert.equal(held?.message, 'Node 1: data memory peaked at 93 % used, now 78 % (alert at 90 %)');

  cluster.set(2, 'NO_CONTACT').poll(20_000);
  assert.match(tracker.snapshot().alerts.find((a) => a.kind === 'node-down')?.message ?? '', /\(now NO_CONTACT\)$/);
  cluster.set(2, 'STARTING').poll(25_000);
  assert.match(tracker.snapshot().alerts.find((a) => a.kind === 'node-down')?.message ?? '', /\(now STARTING\)$/, 'the text follows the node');
});

test('DataMemory climbing steadily raises a lead-time warning before 80 %, with its trend in the node view', () => {
  const cluster = new PolledCluster(2);
  const { tracker } = cluster;
  cluster.poll(0);
  // 2 points a memory round (15 s): 8 points/min.
  for (let i = 0; i <= 5; i++) tracker.apply({ kind: 'memory', t: 1000 + i * 15_000, events: [memory(1, 1000 + i * 15_000, 50 + 2 * i), memory(2, 1000 + i * 15_000, 30)] });
  const node1 = tracker.snapshot().nodes.find((n) => n.nodeId === 1);
  assert.ok(Math.abs((node1?.memory.data?.trend?.perMin ?? 0) - 8) < 0.2, `8 points/min, got ${node1?.memory.data?.trend?.perMin}`);
  const soon = tracker.snapshot().alerts.filter((a) => a.kind === 'fill-soon');
  assert.deepEqual(soon.map((a) => [a.nodeId, a.severity]), [[1, 'warning']], 'node 1 only: node 2 is flat');
  assert.match(soon[0]?.message ?? '', /^Node 1: data memory 60 % full, full in ~5 min at this rate \(\+8\.0 points\/min\)$/);
  assert.equal(tracker.snapshot().nodes.find((n) => n.nodeId === 2)?.memory.data?.trend?.fullInSec, null, 'not filling');
});
