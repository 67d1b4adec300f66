import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PolledCluster, dataMemoryEvent as memory } from '../../../test/tracker-fixture.js';

/** Node 1's DataMemory at 95 % from `t`, then at 10 % until the hold time (30 s) has passed and the alert is over. */
function cycle(cluster: PolledCluster, t: number): void {
  cluster.tracker.apply({ kind: 'event', t, event: memory(1, t, 95) });
  cluster.tracker.apply({ kind: 'event', t: t + 10_000, event: memory(1, t + 10_000, 10) });
  cluster.tracker.apply({ kind: 'event', t: t + 50_000, event: memory(1, t + 50_000, 10) });
}

const critical = (cluster: PolledCluster) => cluster.tracker.snapshot().alerts.filter((a) => a.kind === 'memory-critical');

test('during a run, a condition that clears and comes back reopens its alert of that run, its words naming the time, run and phase', () => {
  const cluster = new PolledCluster(2);
  const { tracker } = cluster;
  cluster.poll(0);
  tracker.apply({ kind: 'run', t: 1000, op: 'start', runId: 'r1', name: 'bench-1', tags: {}, phase: 'load' });
  cycle(cluster, 2000);
  const [first] = critical(cluster);
  assert.ok(first && first.resolvedAt !== null, 'on, then over');
  assert.doesNotMatch(first.message, /time during run/);
  cycle(cluster, 100_000);
  tracker.apply({ kind: 'run', t: 190_000, op: 'phase', runId: 'r1', name: 'measure' });
  tracker.apply({ kind: 'event', t: 200_000, event: memory(1, 200_000, 95) });
  const again = critical(cluster);
  assert.deepEqual(again.map((a) => [a.id, a.resolvedAt]), [[first.id, null]], 'the same alert, on again');
  assert.match(again[0]?.message ?? '', /^Node 1: data memory 95 % used \(≥ 90 %\) \(3rd time during run bench-1, phase measure\)$/);
  // A held alert's words are revised as use falls: they keep saying which time it is.
  tracker.apply({ kind: 'event', t: 210_000, event: memory(1, 210_000, 10) });
  assert.match(critical(cluster)[0]?.message ?? '', /peaked at 95 % used, now 10 % .*\(3rd time during run bench-1, phase measure\)$/);
  tracker.apply({ kind: 'event', t: 250_000, event: memory(1, 250_000, 10) });
  const rows = tracker.alertHistory().entries.filter((e) => e.kind === 'memory-critical');
  assert.equal(rows.length, 1, 'one history row');
  const row = rows[0];
  assert.ok(row && row.clearedAt !== null);
  assert.ok(row.durationMs !== null && row.durationMs < row.clearedAt - row.raisedAt, 'its duration is the time it was on, not its span');
  assert.equal(tracker.counters().alerts.filter((c) => c.kind === 'memory-critical').reduce((s, c) => s + c.raised, 0), 1, 'raised once');

  // Once the run is over, or in another run, it is a new alert.
  tracker.apply({ kind: 'run', t: 260_000, op: 'stop', runId: 'r1' });
  cycle(cluster, 270_000);
  tracker.apply({ kind: 'run', t: 330_000, op: 'start', runId: 'r2', name: 'bench-2', tags: {} });
  cycle(cluster, 340_000);
  const ids = critical(cluster).map((a) => a.id);
  assert.equal(new Set(ids).size, 3, 'bench-1, no run, bench-2: three alerts');
});
