import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EventView } from '../../../../contract/schemas/events.js';
import { CollapseDetector, DEFAULT_COLLAPSE, type OfferedLoad } from '../collapse.js';
import { RunTracker } from '../run-tracker.js';

/** Feeds one sample a second from t = 0; returns the times a collapse was reported. */
function feed(values: Array<number | null>, marks: number[] = []): number[] {
  const d = new CollapseDetector(DEFAULT_COLLAPSE);
  const fired: number[] = [];
  values.forEach((v, i) => {
    const at = i * 1000;
    for (const m of marks) if (m > at - 1000 && m <= at) d.mark(m);
    if (d.sample(at, v)) fired.push(at);
  });
  return fired;
}

const steady = (n: number, level = 100_000): number[] => Array.from({ length: n }, (_, i) => level * (1 + 0.05 * Math.sin(i)));
const fall = (from: number, to: number, steps: number): number[] => Array.from({ length: steps }, (_, i) => from + ((to - from) * (i + 1)) / steps);

test('a fall by more than half within the window after a steady stretch is a collapse, reported once', () => {
  const values = [...steady(30), ...fall(100_000, 12_000, 3), ...steady(40, 12_000)];
  // 30 steady samples (0..29 s), the fall reaches 12k at 32 s; 50 % is crossed at 31 s, confirmed by the next.
  assert.deepEqual(feed(values), [32_000]);
});

test('no collapse when the fall is a marked stop or phase change, within the window or the stretch before it', () => {
  const values = [...steady(30), ...fall(100_000, 0, 3), ...steady(20, 0)];
  assert.deepEqual(feed(values, [29_500]), []);
  assert.deepEqual(feed(values, [20_000]), [], 'a mark in the steady stretch before the window');
  assert.deepEqual(feed([...steady(30), ...fall(100_000, 30_000, 2), ...steady(20, 30_000)], [30_100]), []);
});

test('no collapse on a slow decline, a single bad sample, a gap, an idle cluster or a workload that was not steady', () => {
  assert.deepEqual(feed([...steady(20), ...fall(100_000, 40_000, 60)]), [], 'slow decline');
  assert.deepEqual(feed([...steady(20), 10_000, ...steady(20)]), [], 'one bad sample');
  assert.deepEqual(feed([...steady(20), null, null, ...steady(20)]), [], 'a gap');
  assert.deepEqual(feed([...steady(20, 5), 0, 0, 0, 0]), [], 'idle');
  const ragged = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? 100_000 : 40_000));
  assert.deepEqual(feed([...ragged, 5000, 5000, 5000]), [], 'ragged');
});

test('the drop share and window are configurable', () => {
  const d = new CollapseDetector({ dropShare: 0.2, windowMs: 4000 });
  const values = [...steady(10), 70_000, 70_000, 70_000];
  const fired = values.map((v, i) => d.sample(i * 1000, v)).filter((c) => c !== null);
  assert.equal(fired.length, 1);
  assert.ok(fired[0] && fired[0].before > 95_000 && fired[0].after === 70_000);
});

/** Like `feed`, with what was offered at each sample. */
function feedOffered(values: number[], offered: (i: number) => OfferedLoad): number[] {
  const d = new CollapseDetector(DEFAULT_COLLAPSE);
  return values.flatMap((v, i) => (d.sample(i * 1000, v, offered(i)) ? [i * 1000] : []));
}

test('a fall while the operations in flight and the API nodes stay is a collapse; the load going away is not', () => {
  const values = [...steady(30), ...fall(100_000, 1_000, 3), ...steady(20, 1_000)];
  // Clients keep 400 operations in flight: the cluster stopped keeping up.
  assert.deepEqual(feedOffered(values, () => ({ concurrentOps: 400, apiNodes: 4 })), [32_000]);
  // A ramp-down: the operations in flight fall with the throughput.
  assert.deepEqual(feedOffered(values, (i) => ({ concurrentOps: Math.round((values[i] ?? 0) / 250), apiNodes: 4 })), []);
  // The benchmark's clients disconnect.
  assert.deepEqual(feedOffered(values, (i) => ({ concurrentOps: 400, apiNodes: i < 30 ? 4 : 2 })), []);
  // Without the gauge, the API nodes alone decide.
  assert.deepEqual(feedOffered(values, () => ({ concurrentOps: null, apiNodes: 4 })), [32_000]);
});

test('a collapse lists what changed once: an event that raised an alert by its alert, a repeated sentence once', () => {
  const event = (seq: number, at: number, text: string, alertId?: string): EventView => ({ seq, at, typeId: 50, name: 'MemoryUsage', category: 'STATISTICS', severity: 'WARNING', sourceNodeId: 3, subjectNodeId: null, text, fields: {}, ...(alertId ? { alertId } : {}) });
  const raised: string[] = [];
  const runs = new RunTracker({
    events: () => [event(1, 20_500, 'Node 3: data memory 90% used, rising past a threshold', 'a1'), event(2, 21_000, 'Node 2: node restart'), event(3, 21_500, 'Node 2: node restart')],
    insideFigures: () => ['LDM threads: 30 % busy on average, most on node 2 (31 %)'],
    raiseCollapse: (_at, message) => raised.push(message),
  });
  runs.onAlert({ id: 'a1', kind: 'memory-critical', severity: 'critical', at: 20_500, nodeId: 3, message: 'Node 3: data memory 90% used (≥ 90 %)', acknowledged: false, resolvedAt: null });
  [...steady(20), ...fall(100_000, 1_000, 3), ...steady(5, 1_000)].forEach((v, i) => runs.sample(i * 1000, v, { concurrentOps: 400, apiNodes: 4 }));
  assert.equal(raised.length, 1);
  assert.match(raised[0] ?? '', /in that window: Node 3: data memory 90% used \(≥ 90 %\); Node 2: node restart; inside the data nodes in that window: LDM threads: 30 % busy on average, most on node 2 \(31 %\)$/);
});
