import assert from 'node:assert/strict';
import { test } from 'node:test';
import { initialMachine } from '../execution/executor.js';
import { planEta } from '../plan/eta.js';
import { DEFAULT_LIMITS, planRollingRestart } from '../plan/planner.js';
import { planView } from '../plan/plan-view.js';
import type { Observation, RollMachine } from '../types.js';
import { passingNdb } from './ndb-facts.js';

/** 48 data nodes (2 to 49) in 24 node groups of two: step 1 restarts one node of each, step 2 their partners. */
const ids = Array.from({ length: 48 }, (_, i) => i + 2);
const group = (id: number): number => (id - 2) % 24;
const out = planRollingRestart({
  id: 'p',
  cluster: 'c',
  createdAt: 0,
  dataNodes: ids.map((nodeId) => ({ nodeId, status: 'STARTED' as const, nodeGroup: group(nodeId) })),
  mgmNodeIds: [1],
  replicas: 2,
  order: 'node-group',
  pauseMs: 0,
  limits: DEFAULT_LIMITS,
});
assert.ok(out.ok);
const plan = out.plan;
const [first = [], second = []] = plan.steps;

const observed = (starting: readonly number[], criticalAlerts: string[] = []): Observation => ({
  at: 5000,
  connected: true,
  error: null,
  nodes: ids.map((nodeId) => ({ nodeId, status: starting.includes(nodeId) ? 'STARTING' : 'STARTED', nodeGroup: group(nodeId), dynamicId: nodeId, startPhase: 0 })),
  criticalAlerts,
  restartCompleted: null,
  ndb: passingNdb(5000, ids),
});

/** Step 1 sent at 1000, its 24 nodes seen leaving STARTED and not back yet. */
const running: RollMachine = {
  ...initialMachine(plan),
  phase: { kind: 'waiting' },
  run: { step: 0, attempt: 1, send: 'accepted', sentAt: 1000, answeredAt: 1100, lostError: null, nodes: first.map((nodeId) => ({ nodeId, baseline: null, left: true, notStartedSince: null, backAt: null })) },
  sent: [...first],
};

const view = (m: RollMachine, obs: Observation, started: boolean) => planView({ machine: m, started, obs, eta: planEta(m.plan, []), finish: null, log: [], runId: null, at: 5000 });

test('a healthy step under way: the next step waits for its nodes, said once, with no "would halt" per node', () => {
  assert.equal(first.length, 24);
  const v = view(running, observed(first), true);
  assert.deepEqual(v.steps.map((s) => s.state), ['running', 'pending']);
  assert.deepEqual(v.steps[1]?.hazards, []);
  assert.equal(v.steps[1]?.waiting, `waiting for 24 data nodes (${Math.min(...first)} to ${Math.max(...first)}) to finish starting before step 2`);
  assert.equal(v.steps[0]?.waiting, null);
  // Two nodes back, two still starting: the wait names those.
  const two = view(running, observed(first.slice(0, 2)), true);
  assert.equal(two.steps[1]?.waiting, `waiting for data nodes ${first.slice(0, 2).join(', ')} to finish starting before step 2`);
});

test('what is not the running step coming back is still a hazard of the next step, beside the wait', () => {
  const v = view(running, observed(first, ['data node 40 is out of DataMemory']), true);
  assert.deepEqual(v.steps[1]?.hazards, ['a critical alert is active: data node 40 is out of DataMemory']);
  assert.match(v.steps[1]?.waiting ?? '', /^waiting for 24 data nodes/);
});

test('a plan not started is checked step by step against the cluster now: a node down is a hazard of each step', () => {
  const down = second[0] ?? 0;
  const v = view(initialMachine(plan), observed([down]), false);
  assert.equal(v.state, 'planned');
  assert.deepEqual(v.steps.map((s) => s.waiting), [null, null]);
  assert.match(v.steps[0]?.hazards.join('\n') ?? '', new RegExp(`node ${down} is STARTING: restarting its partner node ${first[0]} would take node group 0 down`));
  assert.match(v.steps[1]?.hazards.join('\n') ?? '', new RegExp(`node ${down} is STARTING, not STARTED`));
});
