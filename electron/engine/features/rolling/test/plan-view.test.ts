import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_LIMITS } from '../plan/planner.js';
import { planView } from '../plan/plan-view.js';
import type { Observation, RollMachine, RollingPlan } from '../types.js';

/** Two node groups (2, 3) and (4, 5); step 1 restarts 2 and 4, step 2 their partners 3 and 5. */
const PLAN: RollingPlan = {
  id: 'p1',
  cluster: 'c1',
  createdAt: 0,
  order: 'node-group',
  pauseMs: 0,
  steps: [
    [2, 4],
    [3, 5],
  ],
  nodeGroups: [
    { nodeId: 2, nodeGroup: 0 },
    { nodeId: 3, nodeGroup: 0 },
    { nodeId: 4, nodeGroup: 1 },
    { nodeId: 5, nodeGroup: 1 },
  ],
  replicas: 2,
  manual: [],
  limits: DEFAULT_LIMITS,
};

/** Step 1 running: its nodes left STARTED and are not back yet. */
const RUNNING: RollMachine = {
  plan: PLAN,
  phase: { kind: 'waiting' },
  step: 0,
  run: { step: 0, attempt: 1, send: 'accepted', sentAt: 1000, answeredAt: 1100, lostError: null, nodes: [2, 4].map((nodeId) => ({ nodeId, baseline: 1, left: true, notStartedSince: null, backAt: null })) },
  sent: [2, 4],
  results: [],
  holdAfterStep: false,
  nextAttempt: 2,
};

function observed(status: Record<number, 'STARTED' | 'STARTING' | 'NOT_STARTED'>): Observation {
  const nodes = Object.entries(status).map(([id, s]) => ({ nodeId: Number(id), status: s, nodeGroup: Number(id) < 4 ? 0 : 1, dynamicId: 2, startPhase: s === 'STARTING' ? 5 : 0 }));
  return { at: 5000, connected: true, error: null, nodes, criticalAlerts: [], restartCompleted: null };
}

const view = (obs: Observation) => planView({ machine: RUNNING, started: true, obs, eta: { stepMs: null, totalMs: null, source: 'none' }, finishAt: null, log: [], runId: null, at: 5000 });

test('a healthy running step is not a halt of the next: its partners STARTING are the wait, not one "would halt" per node', () => {
  const v = view(observed({ 2: 'STARTING', 3: 'STARTED', 4: 'STARTING', 5: 'STARTED' }));
  assert.equal(v.steps[0]?.state, 'running');
  assert.deepEqual(v.steps[1]?.hazards, [], 'nothing but the running step itself stands in the way of step 2');
});

test('what would really halt the next step still shows while a step runs: a node outside the running step that is down', () => {
  const v = view(observed({ 2: 'STARTING', 3: 'STARTED', 4: 'STARTED', 5: 'NOT_STARTED' }));
  assert.deepEqual(v.steps[1]?.hazards, ["node 5 is NOT_STARTED, not STARTED: a rolling restart only restarts a started node"]);
});
