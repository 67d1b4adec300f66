import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { PushMessage } from '../../contract/channels.js';
import type { ClusterSnapshot } from '../../contract/snapshot.js';
import { decimate } from '../history/decimate.js';
import { PushHub } from '../push/push-hub.js';

test('decimation keeps every series’ minimum and maximum and never exceeds maxPoints', () => {
  fc.assert(
    fc.property(fc.array(fc.option(fc.integer({ min: -1000, max: 1000 }), { nil: null }), { minLength: 1, maxLength: 400 }), fc.integer({ min: 2, max: 50 }), (values, maxPoints) => {
      const at = values.map((_, i) => i * 1000);
      const d = decimate(at, [values], maxPoints);
      assert.ok(d.at.length <= Math.max(maxPoints, values.length <= maxPoints ? values.length : 0));
      assert.equal(d.series[0]?.length, d.at.length);
      const present = values.filter((v): v is number => v !== null);
      const kept = (d.series[0] ?? []).filter((v): v is number => v !== null);
      if (present.length === 0) return assert.equal(kept.length, 0);
      assert.equal(Math.min(...kept), Math.min(...present));
      assert.equal(Math.max(...kept), Math.max(...present));
      assert.deepEqual([...d.at], [...d.at].sort((a, b) => a - b));
    }),
  );
});

test('decimation over a sliding window keeps every bucket but its ends, and any window stays within maxPoints', () => {
  fc.assert(
    fc.property(fc.integer({ min: 4, max: 60 }), fc.integer({ min: 1, max: 500 }), fc.integer({ min: 0, max: 10_000 }), (maxPoints, slide, origin) => {
      const samples = Array.from({ length: 2000 }, (_, i) => origin + i * 1000);
      const values = samples.map((t) => Math.round(1000 * Math.sin(t / 7777)));
      const window = (fromMs: number) => {
        const toMs = fromMs + 600_000;
        const inside = samples.map((t, i) => [t, i] as const).filter(([t]) => t >= fromMs && t <= toMs);
        return decimate(inside.map(([t]) => t), [inside.map(([, i]) => values[i] ?? null)], maxPoints, { fromMs, toMs });
      };
      const a = window(origin + 100_000);
      const b = window(origin + 100_000 + slide * 1000);
      for (const d of [a, b]) assert.ok(d.at.length <= maxPoints, `${d.at.length} points for ${maxPoints}`);
      const rows = (d: typeof a) => d.at.map((t, i) => `${t}:${d.series[0]?.[i]}`);
      // Whole buckets (two rows each) of the first window that lie inside the second come back unchanged.
      const inB = new Set(rows(b));
      const shared = rows(a).filter((r) => inB.has(r)).length;
      const bucketsSlid = Math.ceil((slide * 1000) / Math.ceil(600_001 / Math.max(1, Math.floor(maxPoints / 2) - 1)));
      assert.ok(shared >= rows(a).length - 2 * (bucketsSlid + 2), `${shared} of ${rows(a).length} rows kept after sliding ${slide} s`);
    }),
  );
});

function fakeSnapshot(n: number): ClusterSnapshot {
  return {
    clusterId: 'c1',
    name: 'x',
    connection: { mode: 'simulated', status: 'live', connectstring: 'h', mgmd: null, serverVersion: null, failovers: 0, lastError: null, eventStream: { status: 'live', lastEventAt: null } },
    sampledAt: n,
    nodes: [],
    nodeGroups: [],
    masterNodeId: null,
    singleUserApiNodeId: null,
    rates: null,
    backup: null,
    alerts: [],
  };
}

test('pushes are leading-edge: the first change after quiet goes out in the same turn, a burst is coalesced', async () => {
  const hub = new PushHub(100);
  let n = 0;
  hub.addCluster('c1', () => fakeSnapshot(n));
  const got: PushMessage[] = [];
  hub.subscribe((m) => got.push(m));
  assert.equal(got[0]?.type, 'snapshot', 'a new subscriber gets the full snapshot first');

  // Quiet for longer than a lane's slot (2 × 100 ms).
  await new Promise((r) => setTimeout(r, 250));
  n = 1;
  hub.changed('c1');
  await Promise.resolve();
  assert.equal(got.length, 2, 'delivered after one microtask, not after a timer');
  const first = got[1];
  assert.ok(first?.type === 'delta' && first.delta.sampledAt === 1 && first.delta.baseVersion === 1 && first.delta.version === 2);

  for (let i = 2; i < 200; i++) {
    n = i;
    hub.changed('c1');
    await Promise.resolve();
  }
  await new Promise((r) => setTimeout(r, 300));
  const last = got.at(-1);
  assert.ok(got.length <= 6, `a burst of 198 changes became ${got.length - 2} pushes`);
  assert.ok(last?.type === 'delta' && last.delta.sampledAt === 199, 'the final state arrives');
  hub.close();
});

test('an urgent change (a node went down, an alert) goes out at once even inside a burst', async () => {
  const hub = new PushHub(1000);
  let n = 0;
  hub.addCluster('c1', () => fakeSnapshot(n));
  const got: PushMessage[] = [];
  hub.subscribe((m) => got.push(m));
  n = 1;
  hub.changed('c1');
  await Promise.resolve();
  const afterFirst = got.length;
  n = 2;
  hub.changed('c1');
  await Promise.resolve();
  assert.equal(got.length, afterFirst, 'a routine change inside the slot waits');
  n = 3;
  hub.changed('c1', true);
  await Promise.resolve();
  const last = got.at(-1);
  assert.ok(last?.type === 'delta' && last.delta.sampledAt === 3, 'the urgent change went out without waiting for the 1 s slot');
  hub.close();
});

test('a storm of routine and urgent changes stays within about ten pushes a second', async () => {
  const hub = new PushHub(100);
  let n = 0;
  hub.addCluster('c1', () => fakeSnapshot(n));
  const got: PushMessage[] = [];
  hub.subscribe((m) => got.push(m));
  const start = performance.now();
  while (performance.now() - start < 1000) {
    n += 1;
    hub.changed('c1', n % 3 === 0);
    await new Promise((r) => setTimeout(r, 2));
  }
  hub.close();
  const deltas = got.filter((m) => m.type === 'delta').length;
  // Each lane sends at most one push per 200 ms: in one second at most 6 each, the final flush on close aside.
  assert.ok(deltas <= 13, `${deltas} pushes in one second of constant change`);
  assert.ok(deltas >= 2, 'changes still went out');
});
