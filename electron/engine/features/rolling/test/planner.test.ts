import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_LIMITS, planRollingRestart, type PlanRequest } from '../plan/planner.js';

const request = (over: Partial<PlanRequest> = {}): PlanRequest => ({
  id: 'p',
  cluster: 'c',
  createdAt: 0,
  dataNodes: [2, 3, 4, 5, 6, 7].map((id, i) => ({ nodeId: id, status: 'STARTED' as const, nodeGroup: Math.floor(i / 2) })),
  mgmNodeIds: [1],
  replicas: 2,
  order: 'node-group',
  pauseMs: 0,
  limits: DEFAULT_LIMITS,
  ...over,
});

test('planner: one node of each node group per step by default, one node per step with node-id, a chosen set only', () => {
  const byGroup = planRollingRestart(request());
  assert.ok(byGroup.ok);
  assert.deepEqual(byGroup.plan.steps, [[2, 4, 6], [3, 5, 7]]);
  assert.match(byGroup.plan.manual[0] ?? '', /management server 1/);
  const byId = planRollingRestart(request({ order: 'node-id' }));
  assert.ok(byId.ok);
  assert.deepEqual(byId.plan.steps, [[2], [3], [4], [5], [6], [7]]);
  const chosen = planRollingRestart(request({ chosen: [3, 4, 5] }));
  assert.ok(chosen.ok);
  assert.deepEqual(chosen.plan.steps, [[3, 4], [5]]);
});

test('planner: refuses a management server, an unknown node, a node group of one node and an unknown node group', () => {
  const out = planRollingRestart(request({ chosen: [1, 9] }));
  assert.ok(!out.ok);
  assert.match(out.reasons.join('\n'), /node 1 is a management server/);
  assert.match(out.reasons.join('\n'), /node 9 is not a data node/);
  const single = planRollingRestart(request({ replicas: 1, dataNodes: [{ nodeId: 2, status: 'STARTED', nodeGroup: 0 }] }));
  assert.ok(!single.ok && /node group 0 has only node 2 \(NoOfReplicas 1\)/.test(single.reasons[0] ?? ''));
  const unknown = planRollingRestart(request({ dataNodes: [{ nodeId: 2, status: 'NO_CONTACT', nodeGroup: null }, { nodeId: 3, status: 'STARTED', nodeGroup: 0 }] }));
  assert.ok(!unknown.ok && /node 2's node group is not known/.test(unknown.reasons.join()));
});
