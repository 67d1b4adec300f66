import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JUDGE_WITHIN_MS } from '../../../cluster/rooms/alerts/memory-alerts.js';
import { PolledCluster, dataMemoryEvent, statisticsEvent } from '../../../test/tracker-fixture.js';
import { clusterWideAbove, isClusterWide } from '../memory-spread.js';

const NODES = 16;

/** A threshold event (gth +1) from a 1000-page node now at `percent`. */
function crossing(node: number, at: number, percent: number) {
  return statisticsEvent('MemoryUsage', 50, node, at, { gth: 1, page_size_bytes: 32768, pages_used: percent * 10, pages_total: 1000, block: 249 });
}

/** One `dump events 50` round with every data node at `use(id)` %. */
function round(cluster: PolledCluster, t: number, use: (id: number) => number): void {
  const events = Array.from({ length: NODES }, (_, i) => dataMemoryEvent(i + 1, t, use(i + 1)));
  cluster.tracker.apply({ kind: 'memory', t, events });
}

function memoryAlerts(cluster: PolledCluster) {
  return cluster.tracker.snapshot().alerts.filter((a) => a.kind.startsWith('memory'));
}

test('many nodes is more than a quarter of the data nodes, and never one node group or fewer', () => {
  assert.equal(clusterWideAbove(144, 2), 36);
  assert.equal(isClusterWide(36, 144, 2), false);
  assert.equal(isClusterWide(37, 144, 2), true);
  assert.equal(isClusterWide(2, 4, 2), false, 'one node group of four data nodes is skew');
  assert.equal(isClusterWide(3, 4, 2), true);
  assert.equal(isClusterWide(2, 2, 2), false, 'a cluster of one node group keeps per-node alerts');
  assert.equal(isClusterWide(3, 6, 3), false, 'one node group at NoOfReplicas 3');
  assert.equal(isClusterWide(3, 6, null), true, 'NoOfReplicas unknown: two, the usual');
});

test('one node group crossing alone keeps its per-node alerts', () => {
  const cluster = new PolledCluster(NODES);
  cluster.poll(0);
  round(cluster, 1000, () => 60);
  cluster.tracker.apply({ kind: 'event', t: 5000, event: crossing(1, 5000, 91) });
  cluster.tracker.apply({ kind: 'event', t: 5100, event: crossing(2, 5100, 92) });
  assert.deepEqual(memoryAlerts(cluster), [], 'the crossing waits for every node\'s use of one moment');
  round(cluster, 5300, (id) => (id <= 2 ? 91 : 61));
  const alerts = memoryAlerts(cluster);
  assert.deepEqual(alerts.map((a) => [a.kind, a.nodeId]), [['memory-critical', 1], ['memory-critical', 2]]);
  assert.ok(alerts.every((a) => a.clusterWide === undefined));
});

test('a crossing with no round after it is judged on what is known within the wait', () => {
  const cluster = new PolledCluster(NODES);
  cluster.poll(0);
  round(cluster, 1000, () => 60);
  cluster.tracker.apply({ kind: 'event', t: 5000, event: crossing(7, 5000, 82) });
  cluster.tracker.apply({ kind: 'tick', t: 5000 + JUDGE_WITHIN_MS - 1 });
  assert.deepEqual(memoryAlerts(cluster), []);
  cluster.tracker.apply({ kind: 'tick', t: 5000 + JUDGE_WITHIN_MS });
  assert.deepEqual(memoryAlerts(cluster).map((a) => [a.kind, a.nodeId]), [['memory-high', 7]]);
});

test('a crossing over before it was judged still raised its alert, then over (a hold shorter than the wait)', () => {
  const cluster = new PolledCluster(NODES, { memoryAlertHoldMs: 500 });
  cluster.poll(0);
  round(cluster, 1000, () => 60);
  cluster.tracker.apply({ kind: 'event', t: 5000, event: crossing(7, 5000, 82) });
  cluster.tracker.apply({ kind: 'event', t: 5200, event: dataMemoryEvent(7, 5200, 60) });
  cluster.tracker.apply({ kind: 'event', t: 5800, event: dataMemoryEvent(7, 5800, 60) });
  const history = cluster.tracker.alertHistory().entries.filter((r) => r.kind === 'memory-high');
  assert.deepEqual(history.map((r) => [r.nodeId, r.clearedAt]), [[7, 5800]]);
  assert.deepEqual(memoryAlerts(cluster).filter((a) => a.resolvedAt === null), []);
});

test('the cluster filling together raises one alert whose words follow the count, over once all are back under', () => {
  const cluster = new PolledCluster(NODES);
  const { tracker } = cluster;
  cluster.poll(0);
  round(cluster, 1000, () => 60);
  // NDB spreads rows evenly: node 3 crosses first, the others are a point or two behind it.
  tracker.apply({ kind: 'event', t: 10_000, event: crossing(3, 10_000, 80) });
  round(cluster, 10_200, (id) => (id === 3 ? 80 : 78));
  let alerts = memoryAlerts(cluster);
  assert.equal(alerts.length, 1);
  assert.equal(alerts[0]?.nodeId, null);
  assert.equal(alerts[0]?.kind, 'memory-high');
  assert.equal(alerts[0]?.message, 'Data memory ≥ 80 % used on 1 of 16 data nodes (now 78–80 %)');
  assert.deepEqual(alerts[0]?.clusterWide, { nodeIds: [3], of: 16 });

  for (let id = 1; id <= NODES; id++) if (id !== 3) tracker.apply({ kind: 'event', t: 11_000 + id, event: crossing(id, 11_000 + id, 81) });
  alerts = memoryAlerts(cluster);
  assert.equal(alerts.length, 1, 'the other nodes\' crossings raise nothing of their own');
  assert.equal(alerts[0]?.message, 'Data memory ≥ 80 % used on 16 of 16 data nodes (now 80–81 %)');
  assert.equal(alerts[0]?.clusterWide?.nodeIds.length, 16);

  // Back under the mark: the hysteresis holds the alert, which says so rather than a use the tiles contradict.
  round(cluster, 20_000, () => 62);
  alerts = memoryAlerts(cluster);
  assert.equal(alerts[0]?.resolvedAt, null);
  assert.equal(alerts[0]?.message, 'Data memory was ≥ 80 % used on 16 of 16 data nodes (peak 81 %), now 62 %');
  round(cluster, 51_000, () => 61);
  alerts = memoryAlerts(cluster);
  assert.equal(alerts.length, 1);
  assert.equal(alerts[0]?.resolvedAt, 51_000);
  const history = tracker.alertHistory().entries.filter((e) => e.kind.startsWith('memory'));
  assert.equal(history.length, 1, 'one row of history');
  assert.match(history[0]?.message ?? '', /^Data memory was ≥ 80 % used on 16 of 16 data nodes/, 'its words as they last were');
});
