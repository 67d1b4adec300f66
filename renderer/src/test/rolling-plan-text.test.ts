import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RollingStepView } from '../contract.js';
import { formatClock } from '../view-model/format.js';
import { etaText, stepWait } from '../view-model/restarts/rolling-plan-text.js';

const step = (n: number, state: RollingStepView['state'], progress: RollingStepView['progress'] = []): RollingStepView => ({ step: n, nodes: [], state, durationMs: null, hazards: [], progress });

test("a step's waiting shows once, on the step after the running one, naming the nodes not back yet", () => {
  const running = step(1, 'running', [
    { nodeId: 2, left: true, backAt: null },
    { nodeId: 4, left: true, backAt: 9000 },
  ]);
  const steps = [running, step(2, 'pending'), step(3, 'pending')];
  assert.equal(stepWait(steps, steps[1]!), 'waiting for node 2 to be STARTED again before step 2');
  assert.equal(stepWait(steps, steps[2]!), null, 'once, not on every later step');
  assert.equal(stepWait(steps, running), null);
  const back = [step(1, 'running', [{ nodeId: 2, left: true, backAt: 9000 }]), step(2, 'pending')];
  assert.equal(stepWait(back, back[1]!), null, 'nothing to wait for once every node is back');
  const many = [step(1, 'running', [2, 4, 6, 8, 10].map((nodeId) => ({ nodeId, left: true, backAt: null }))), step(2, 'pending')];
  assert.equal(stepWait(many, many[1]!), "waiting for 5 of step 1's nodes to be STARTED again before step 2", 'counted, not listed again');
});

test('the finish reads as a sentence: never "unknown known after the first step"', () => {
  assert.equal(etaText({ finishAt: null, stepMs: null, source: 'none' }, 0), 'not known until the first step is timed');
  assert.equal(etaText({ finishAt: 600_000, stepMs: 60_000, source: 'ndbinfo' }, 0), `${formatClock(600_000)} (in 10 min 00 s), from restart_info phase times`);
  assert.match(etaText({ finishAt: null, stepMs: 60_000, source: 'previous restarts' }, 0), /^1 min 00 s a step, from the steps timed before$/);
});
