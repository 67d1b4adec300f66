import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterEvent, NodeState } from '../../../../../native-mgm/index.js';
import { DATA_MEMORY_BLOCK, INDEX_MEMORY_BLOCK } from '../../../cluster/memory.js';
import { ClusterTracker } from '../../../cluster/cluster-tracker.js';
import { diffSnapshots } from '../snapshot-delta.js';

/** The largest cluster NDB allows: 144 data nodes in 72 groups, 2 management and 109 API nodes. */
function states(): NodeState[] {
  return Array.from({ length: 255 }, (_, i): NodeState => {
    const nodeId = i + 1;
    const type = nodeId <= 144 ? 'NDB' : nodeId <= 146 ? 'MGM' : 'API';
    return {
      nodeId,
      type,
      status: type === 'API' && nodeId > 186 ? 'NO_CONTACT' : type === 'NDB' ? 'STARTED' : 'CONNECTED',
      statusRaw: type === 'API' && nodeId > 186 ? 'NO_CONTACT' : type === 'NDB' ? 'STARTED' : 'CONNECTED',
      startPhase: 0,
      nodeGroup: type === 'NDB' ? Math.floor(i / 2) : null,
      version: '9.3.0',
      versionRaw: 0x90300,
      mysqlVersion: '9.3.0',
      mysqlVersionRaw: 0x90300,
      address: `10.0.${Math.floor(nodeId / 100)}.${nodeId % 100}`,
      connectCount: 1,
      dynamicId: nodeId,
      isSingleUser: false,
      isMaster: nodeId === 1,
      extra: {},
    };
  });
}

function polledTracker(): ClusterTracker {
  const t = new ClusterTracker('c1', 'big', { connectstring: 'x', mode: 'simulated', historySeconds: 60 }, { changed: () => undefined, events: () => undefined, alert: () => undefined, history: () => undefined });
  t.apply({ kind: 'status', t: 1000, requestedAt: 990, nodes: states() });
  return t;
}

test('a poll of a steady 255-node cluster that changed nothing carries no node, only the new sample time, in a few bytes', () => {
  const t = polledTracker();
  const before = t.snapshot();
  t.apply({ kind: 'status', t: 2000, requestedAt: 1990, nodes: states() });
  const after = t.snapshot();
  assert.equal(after.sampledAt, 2000, 'the poll time moved, once, at the cluster level');
  const delta = diffSnapshots(before, after, 7);
  assert.ok(delta);
  assert.equal(delta.nodes, undefined, 'no node changed, so none is sent');
  assert.equal(delta.sampledAt, 2000);
  const bytes = Buffer.byteLength(JSON.stringify(delta));
  assert.ok(bytes < 300, `a steady poll's delta is ${bytes} bytes for 255 nodes`);
});

test('one node changing in a poll puts exactly that node in the delta', () => {
  const t = polledTracker();
  const before = t.snapshot();
  const next = states().map((s) => (s.nodeId === 17 ? { ...s, connectCount: 2 } : s));
  t.apply({ kind: 'status', t: 2000, requestedAt: 1990, nodes: next });
  const delta = diffSnapshots(before, t.snapshot(), 7);
  assert.deepEqual(delta?.nodes?.map((n) => [n.nodeId, n.connectCount]), [[17, 2]]);
});

test('a node that loses contact is in the delta with since when it was last seen, and its group partner lost its safe-to-stop', () => {
  const t = polledTracker();
  const before = t.snapshot();
  const next = states().map((s) => (s.nodeId === 5 ? { ...s, status: 'NO_CONTACT' as const, statusRaw: 'NO_CONTACT' } : s));
  t.apply({ kind: 'status', t: 2000, requestedAt: 1990, nodes: next });
  const delta = diffSnapshots(before, t.snapshot(), 7);
  assert.deepEqual(delta?.nodes?.map((n) => [n.nodeId, n.status, n.lastSeenAt, n.safeToStop]), [
    [5, 'NO_CONTACT', 2000, null],
    [6, 'STARTED', null, false],
  ]);
});

function memoryUsage(nodeId: number, at: number, block: number, used: number): ClusterEvent {
  return { typeId: 50, name: 'MemoryUsage', category: 'STATISTICS', severity: 'INFO', sourceNodeId: nodeId, receivedAt: at, fields: { gth: 0, page_size_bytes: 32768, pages_used: used, pages_total: 65536, block }, data: null, known: true, raw: {} };
}

/** One `dump events 50` reply from every data node but `missing`. */
function memoryRound(at: number, missing: number[] = [], used = 20_000): ClusterEvent[] {
  return Array.from({ length: 144 }, (_, i) => i + 1)
    .filter((id) => !missing.includes(id))
    .flatMap((id) => [memoryUsage(id, at, DATA_MEMORY_BLOCK, used), memoryUsage(id, at, INDEX_MEMORY_BLOCK, 1000)]);
}

test('memory refreshes: the same figures again carry no node; a node missing from a refresh is sent once, its figures stale, and again when it reports', () => {
  const t = polledTracker();
  t.apply({ kind: 'memory', t: 1500, events: memoryRound(1500) });
  const first = t.snapshot();
  assert.deepEqual(first.nodes.find((n) => n.nodeId === 9)?.memory.data, { usedPages: 20_000, totalPages: 65536, pageSizeBytes: 32768, percent: (20_000 * 100) / 65536, stale: false, trend: null });
  t.apply({ kind: 'memory', t: 16_500, events: memoryRound(16_500) });
  const same = t.snapshot();
  assert.equal(diffSnapshots(first, same, 1), null, 'a refresh with the same pages changes nothing');
  // The third reading gives every fill its trend (flat: not filling), once; from then on the same pages change nothing.
  t.apply({ kind: 'memory', t: 24_000, events: memoryRound(24_000) });
  const settled = t.snapshot();
  assert.deepEqual(settled.nodes.find((n) => n.nodeId === 9)?.memory.data?.trend, { perMin: 0, fullInSec: null });
  t.apply({ kind: 'memory', t: 27_000, events: memoryRound(27_000) });
  assert.equal(diffSnapshots(settled, t.snapshot(), 2), null, 'a flat trend is the same trend: nothing to send');
  const steady = t.snapshot();
  t.apply({ kind: 'memory', t: 31_500, events: memoryRound(31_500, [9]) });
  const missing = t.snapshot();
  const delta = diffSnapshots(steady, missing, 2);
  assert.deepEqual(delta?.nodes?.map((n) => [n.nodeId, n.memory.data?.stale, n.memory.index?.stale, n.memory.data?.usedPages]), [[9, true, true, 20_000]]);
  t.apply({ kind: 'memory', t: 46_500, events: memoryRound(46_500, [9]) });
  assert.equal(diffSnapshots(missing, t.snapshot(), 3), null, 'still missing: nothing new');
  const before = t.snapshot();
  t.apply({ kind: 'memory', t: 61_500, events: memoryRound(61_500) });
  assert.deepEqual(diffSnapshots(before, t.snapshot(), 4)?.nodes?.map((n) => [n.nodeId, n.memory.data?.stale]), [[9, false]]);
});

test('a node that loses contact shows its memory figures as stale, without a refresh', () => {
  const t = polledTracker();
  t.apply({ kind: 'memory', t: 1500, events: memoryRound(1500) });
  const next = states().map((s) => (s.nodeId === 5 ? { ...s, status: 'NO_CONTACT' as const, statusRaw: 'NO_CONTACT' } : s));
  t.apply({ kind: 'status', t: 2000, requestedAt: 1990, nodes: next });
  const node5 = t.snapshot().nodes.find((n) => n.nodeId === 5);
  assert.equal(node5?.memory.data?.stale, true);
  assert.equal(node5?.memory.index?.stale, true);
  assert.equal(node5?.memory.data?.usedPages, 20_000, 'the figures from when it was last seen');
});
