import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterEvent } from '../../../../../native-mgm/index.js';
import { RateTracker } from '../rates.js';
import { MAX_OPS_PER_NODE_PER_SEC } from '../plausible.js';

function trans(node: number, at: number, reads: number): ClusterEvent {
  return { typeId: 35, name: 'TransReportCounters', category: 'STATISTICS', severity: 'INFO', sourceNodeId: node, receivedAt: at, fields: { trans_count: 10, read_count: reads, conc_op_count: 1 }, data: null } as unknown as ClusterEvent;
}

/** Two TC instances per node reporting `reads` every 5 s from `from` to `to`. */
function feed(tracker: RateTracker, node: number, from: number, to: number, reads: number): void {
  for (let t = from; t <= to; t += 5000) {
    tracker.apply(trans(node, t, reads));
    tracker.apply(trans(node, t + 2500, reads));
  }
}

test('a count at or past 2³¹ in one 5 s report (a negative number read unsigned) is rejected and counted', () => {
  const tracker = new RateTracker();
  feed(tracker, 2, 0, 30_000, 5000);
  const before = tracker.node(2);
  assert.equal(before?.reads, 2000);
  // −1305 as the unsigned word the wire carries.
  assert.deepEqual(tracker.apply(trans(2, 31_000, 2 ** 32 - 1305)), { changed: true });
  assert.deepEqual(tracker.apply(trans(2, 31_500, 2 ** 31)), { changed: true });
  const after = tracker.node(2);
  assert.equal(after?.reads, 2000, 'the rate ignores the impossible reports');
  assert.equal(after?.rejectedReports, 2);
  assert.equal(tracker.total(32_000, [2])?.rejectedReports, 2);
});

test('a report implying more than any data node can do is rejected, one just under the limit is kept', () => {
  const tracker = new RateTracker();
  feed(tracker, 2, 0, 30_000, 5000);
  const limitPerReport = MAX_OPS_PER_NODE_PER_SEC * 5;
  tracker.apply(trans(2, 31_000, limitPerReport + 1));
  assert.equal(tracker.node(2)?.rejectedReports, 1);
  assert.equal(tracker.node(2)?.reads, 2000);
  tracker.apply(trans(2, 32_000, limitPerReport - 1));
  assert.equal(tracker.node(2)?.rejectedReports, 1);
  assert.ok((tracker.node(2)?.reads ?? 0) > 2000);
});

test('the cluster total sums only nodes with fresh reports and says how many of how many', () => {
  const tracker = new RateTracker();
  feed(tracker, 2, 0, 60_000, 5000);
  feed(tracker, 3, 0, 30_000, 10_000);
  feed(tracker, 4, 0, 60_000, 0);
  const atEnd = tracker.total(60_000, [2, 3, 4, 5]);
  assert.deepEqual(atEnd?.contributing, { nodes: 2, of: 4 }, 'node 3 went quiet 30 s ago, node 5 never reported');
  assert.equal(atEnd?.reads, 2000);
  assert.equal(tracker.isFresh(3, 60_000), false);
  assert.equal(tracker.isFresh(2, 60_000), true);
  assert.equal(tracker.node(3)?.reads, 4000, 'the last rate of a quiet node is kept, for "last seen"');
  assert.equal(tracker.total(100_000, [2, 3, 4]), null, 'nothing fresh: no total rather than a zero');
});

test('a restarted node starts over: reports from before its restart do not mix into its new rate', () => {
  const tracker = new RateTracker();
  feed(tracker, 2, 0, 60_000, 50_000);
  tracker.restarted(2);
  // After the restart the node runs one TC instance at a tenth of the load.
  for (let t = 70_000; t <= 90_000; t += 5000) tracker.apply(trans(2, t, 5000));
  assert.equal(tracker.node(2)?.reads, 1000);
});

test('a report that leaves the node’s rates as they were says so and keeps the same object; one that moves them does not', () => {
  const tracker = new RateTracker();
  feed(tracker, 2, 0, 30_000, 0);
  const idle = tracker.node(2);
  assert.equal(idle?.reads, 0);
  // An idle cluster's instances keep reporting zeros: nothing the node shows moves.
  assert.deepEqual(tracker.apply(trans(2, 35_000, 0)), { changed: false });
  assert.equal(tracker.node(2), idle, 'the same rates object, so views and deltas compare it by identity');
  assert.deepEqual(tracker.apply(trans(2, 40_000, 500)), { changed: true });
  assert.equal(tracker.node(2)?.reads, 100, 'the latest report of each of the 2 instances (0 and 500) over 5 s');
  assert.notEqual(tracker.node(2), idle);
});
