import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { planEta } from '../plan/eta.js';
import { PlanStore } from '../plan/plan-store.js';
import { DEFAULT_LIMITS, planRollingRestart } from '../plan/planner.js';

const out = planRollingRestart({
  id: 'p',
  cluster: 'c',
  createdAt: 0,
  dataNodes: [2, 3, 4, 5].map((nodeId, i) => ({ nodeId, status: 'STARTED' as const, nodeGroup: i % 2 })),
  mgmNodeIds: [1],
  replicas: 2,
  order: 'node-id',
  pauseMs: 10_000,
  limits: DEFAULT_LIMITS,
});
assert.ok(out.ok);
const plan = out.plan;

test('plan ETA from the step history the state file keeps: the mean of the last five steps, each step and the time between them', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ndbtop-eta-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const store = new PlanStore(join(dir, 's.json'), { key: 'k', label: 'cluster "c"' });
  // 25 steps timed over earlier plans: the file keeps the last 20, the ETA reads the last 5 (the cluster as it is now).
  store.save({ machine: null, history: Array.from({ length: 25 }, (_, i) => (i < 20 ? 1000 : 30_000 + (i - 20) * 1000)) });
  const loaded = store.load();
  const history = loaded.kind === 'ours' ? loaded.stored.history : [];
  assert.equal(history.length, 20);
  // Enough timed: the spread of the last five, the gaps between steps the pause plus a quarter step at most while none is measured.
  const eta = planEta(plan, history);
  assert.deepEqual({ stepMs: eta.stepMs, totalMs: eta.totalMs, basis: eta.basis, source: eta.source }, { stepMs: 32_000, totalMs: 4 * 32_000 + 3 * 10_000, basis: 20, source: 'previous restarts' });
  assert.deepEqual(eta.range, { lowMs: 4 * 30_000 + 3 * 10_000, highMs: 4 * 34_000 + 3 * (10_000 + 8500) });
  // Gaps this plan measured replace the guess; resumed after two steps: the two left and the gap between them.
  const resumed = planEta(plan, history, [], 2, { measured: [12_000, 14_000], pauseMs: 10_000 });
  assert.deepEqual({ totalMs: resumed.totalMs, range: resumed.range }, { totalMs: 2 * 32_000 + 13_000, range: { lowMs: 2 * 30_000 + 12_000, highMs: 2 * 34_000 + 14_000 } });
  assert.equal(planEta(plan, history, [], 4).totalMs, 0, 'nothing left');
});

test('plan ETA is a widened range until three steps are timed, said with how many it rests on', () => {
  const one = planEta(plan, [30_000]);
  assert.deepEqual({ basis: one.basis, range: one.range }, { basis: 1, range: { lowMs: 4 * 15_000 + 3 * 10_000, highMs: 4 * 45_000 + 3 * (10_000 + 11_250) } });
  const two = planEta(plan, [30_000, 40_000]);
  assert.deepEqual({ basis: two.basis, range: two.range }, { basis: 2, range: { lowMs: 4 * 22_500 + 3 * 10_000, highMs: 4 * 50_000 + 3 * (10_000 + 12_500) } });
  const three = planEta(plan, [30_000, 40_000, 35_000]);
  assert.deepEqual({ basis: three.basis, low: three.range?.lowMs, high: three.range?.highMs }, { basis: 3, low: 4 * 30_000 + 3 * 10_000, high: 4 * 40_000 + 3 * (10_000 + 10_000) });
});

test('plan ETA: ndbinfo timings win over the history; with neither it is unknown, not a guess', () => {
  const eta = planEta(plan, [5000], [8000, 8000, 8000]);
  assert.deepEqual({ stepMs: eta.stepMs, totalMs: eta.totalMs, source: eta.source }, { stepMs: 8000, totalMs: 4 * 8000 + 3 * 10_000, source: 'ndbinfo' });
  assert.deepEqual(planEta(plan, []), { stepMs: null, totalMs: null, range: null, basis: 0, source: 'none' });
});
