import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PolledCluster } from '../../test/tracker-fixture.js';

test('a node down or restarting when ndbtop first polled is marked so: its status and start began before ndbtop watched', () => {
  const cluster = new PolledCluster(4);
  cluster.set(2, 'NO_CONTACT').set(3, 'STARTING').poll(100_000);
  const first = cluster.tracker.snapshot();
  const node = (id: number) => first.nodes.find((n) => n.nodeId === id);
  assert.equal(node(2)?.statusBeforeWatch, true, 'down before ndbtop: never seen in contact');
  assert.equal(node(3)?.statusBeforeWatch, true);
  assert.equal(node(3)?.restart?.underWayAtConnect, true, 'the start was under way: its elapsed time is a lower bound');
  assert.equal(node(1)?.statusBeforeWatch, true, 'up since before ndbtop too');
  // A change seen by ndbtop is timed by it.
  cluster.set(3, 'STARTED').set(1, 'NO_CONTACT').poll(130_000);
  const later = cluster.tracker.snapshot();
  const again = (id: number) => later.nodes.find((n) => n.nodeId === id);
  assert.equal(again(1)?.statusBeforeWatch, undefined);
  assert.equal(again(1)?.lastSeenAt, 130_000);
  assert.equal(again(3)?.statusBeforeWatch, undefined);
  assert.equal(again(2)?.statusBeforeWatch, true, 'still never seen');
  // A start ndbtop saw only in part is no basis for estimating the next one.
  cluster.set(4, 'STARTING').poll(140_000);
  assert.equal(cluster.tracker.snapshot().nodes.find((n) => n.nodeId === 4)?.restart?.estimatedMsLeft, null);
});
