import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PolledCluster } from '../../../test/tracker-fixture.js';

const S = 1000;
const MIN = 60 * S;

/** Restarts data node `id` from `at`: down, starting, up again `durationMs` later, as polls see it. */
function restart(cluster: PolledCluster, id: number, at: number, durationMs: number): number {
  cluster.set(id, 'NO_CONTACT').poll(at);
  cluster.set(id, 'STARTING').poll(at + durationMs / 2);
  cluster.set(id, 'STARTED').poll(at + durationMs);
  return at + durationMs;
}

test('48 data nodes in a rolling restart: progress, order, next and ETA are the engine\'s record, whatever window a page shows', () => {
  const cluster = new PolledCluster(48);
  cluster.poll(0);
  assert.equal(cluster.tracker.snapshot().rollingRestart, null, 'no restart yet');
  // Nodes 1..22 restarted one after the other: 60 s each, 30 s apart.
  let t = 10 * S;
  for (let id = 1; id <= 22; id++) t = restart(cluster, id, t, MIN) + 30 * S;
  const lastEnd = t - 30 * S;
  // Node 23 is down now.
  cluster.set(23, 'NO_CONTACT').poll(t);
  const during = cluster.tracker.snapshot().rollingRestart;
  assert.ok(during);
  assert.equal(during.source, 'observed');
  assert.equal(during.startedAt, 10 * S);
  assert.equal(during.done.length, 22);
  assert.deepEqual(during.inProgress, [23]);
  assert.equal(during.remaining.length, 25);
  assert.equal(during.next, null, 'no suggestion while a restart is under way');
  assert.deepEqual(
    during.restarts.map((r) => r.nodeId),
    Array.from({ length: 23 }, (_, i) => i + 1),
    'in the order they went down',
  );
  assert.ok(during.restarts.slice(0, 22).every((r) => r.to !== null && r.to - r.from === MIN));
  // Pace: a restart and the wait before the next (60 s + 30 s); node 23 back a minute after it went down, then 25 to go.
  assert.equal(during.paceMs, 90 * S);
  assert.equal(during.etaAt, t + MIN + 30 * S + 24 * 90 * S + MIN);
  assert.deepEqual({ range: during.etaRange, basis: during.etaBasis }, { range: { from: during.etaAt, to: during.etaAt }, basis: 22 }, 'timed alike 22 times: one figure');
  assert.equal(lastEnd + 30 * S, t);
  // The timeline a page asks for (its chart window) changes nothing of it.
  for (const window of [MIN, 5 * MIN, 15 * MIN, 60 * MIN]) {
    assert.ok(cluster.tracker.timelineView(t - window).nodes.length > 0);
    assert.deepEqual(cluster.tracker.snapshot().rollingRestart, during);
  }
  // Node 23 up: the next suggestion is never a node restarted in this round.
  cluster.set(23, 'STARTED').poll(t + MIN);
  const between = cluster.tracker.snapshot().rollingRestart;
  assert.ok(between);
  assert.equal(between.next, 24);
  assert.equal(between.done.length, 23);
  assert.ok(!between.done.includes(between.next ?? 0));
});

test('rolling restart rounds: a node restarted again starts a new round; ten quiet minutes end one; a restart under way at connect says so', () => {
  const cluster = new PolledCluster(4);
  cluster.set(2, 'STARTING').poll(0);
  const first = cluster.tracker.snapshot().rollingRestart;
  assert.ok(first);
  assert.deepEqual(first.restarts, [{ nodeId: 2, from: 0, to: null, underWayAtConnect: true }]);
  assert.equal(first.etaAt, null, 'no pace before a restart is done');
  cluster.set(2, 'STARTED').poll(2 * MIN);
  const partial = cluster.tracker.snapshot().rollingRestart;
  assert.deepEqual({ etaAt: partial?.etaAt, basis: partial?.etaBasis }, { etaAt: null, basis: 0 }, 'a restart seen from its middle is no baseline');
  let t = restart(cluster, 1, 3 * MIN, 2 * MIN);
  // From one whole restart: a range (±50 %, and the wait before the next unknown) that holds the real finish, 9 min.
  const fromOne = cluster.tracker.snapshot().rollingRestart;
  assert.equal(fromOne?.etaBasis, 1);
  assert.ok(fromOne?.etaRange && fromOne.etaRange.from <= 9 * MIN && 9 * MIN <= fromOne.etaRange.to && fromOne.etaRange.from < fromOne.etaRange.to, JSON.stringify(fromOne));
  t = restart(cluster, 3, t, 2 * MIN);
  t = restart(cluster, 4, t, 2 * MIN);
  const complete = cluster.tracker.snapshot().rollingRestart;
  assert.ok(complete?.complete);
  assert.equal(complete.etaAt, null);
  // Node 1 again: the loop came round.
  cluster.set(1, 'SHUTTING_DOWN').poll(t + MIN);
  const second = cluster.tracker.snapshot().rollingRestart;
  assert.equal(second?.startedAt, t + MIN);
  assert.deepEqual(second?.restarts.map((r) => r.nodeId), [1]);
  cluster.set(1, 'STARTED').poll(t + 2 * MIN);
  cluster.poll(t + 2 * MIN + 9 * MIN);
  assert.ok(cluster.tracker.snapshot().rollingRestart, 'still shown nine minutes after');
  cluster.tracker.apply({ kind: 'tick', t: t + 2 * MIN + 10 * MIN });
  assert.equal(cluster.tracker.snapshot().rollingRestart, null, 'over after ten quiet minutes');
  // A node down after that quiet gap starts a new round, although it was in the last one.
  cluster.set(3, 'NO_CONTACT').poll(t + 30 * MIN);
  assert.deepEqual(cluster.tracker.snapshot().rollingRestart?.restarts.map((r) => [r.nodeId, r.from]), [[3, t + 30 * MIN]]);
});
