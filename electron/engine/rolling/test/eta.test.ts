import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { planEta } from '../eta.js';
import { PlanStore } from '../plan-store.js';
import { DEFAULT_LIMITS, planRollingRestart } from '../planner.js';

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

test('plan ETA from the step history the state file keeps: the mean of the last five steps, each step and the pauses between them', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ndbtop-eta-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const store = new PlanStore(join(dir, 's.json'), { key: 'k', label: 'cluster "c"' });
  // 25 steps timed over earlier plans: the file keeps the last 20, the ETA reads the last 5 (the cluster as it is now).
  store.save({ machine: null, history: Array.from({ length: 25 }, (_, i) => (i < 20 ? 1000 : 30_000 + (i - 20) * 1000)) });
  const loaded = store.load();
  const history = loaded.kind === 'ours' ? loaded.stored.history : [];
  assert.equal(history.length, 20);
  assert.deepEqual(planEta(plan, history), { stepMs: 32_000, totalMs: 4 * 32_000 + 3 * 10_000, source: 'previous restarts' });
  // Resumed after two steps: the two left and the pause between them.
  assert.deepEqual(planEta(plan, history, null, 2), { stepMs: 32_000, totalMs: 2 * 32_000 + 10_000, source: 'previous restarts' });
  assert.deepEqual(planEta(plan, history, null, 4), { stepMs: 32_000, totalMs: 0, source: 'previous restarts' }, 'nothing left');
});

test('plan ETA: ndbinfo baselines win over the history; with neither it is unknown, not a guess', () => {
  assert.deepEqual(planEta(plan, [5000], 8000), { stepMs: 8000, totalMs: 4 * 8000 + 3 * 10_000, source: 'ndbinfo' });
  assert.deepEqual(planEta(plan, []), { stepMs: null, totalMs: null, source: 'none' });
});
