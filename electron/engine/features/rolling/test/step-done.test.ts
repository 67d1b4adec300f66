import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Observation, RollInput, RollMachine } from '../types.js';
import { drive, fourNodePlan } from './four-node-plan.js';
import { passingNdb } from './ndb-facts.js';

const plan = fourNodePlan('node-group', { stepMs: 20_000 });
assert.deepEqual(plan.steps, [[2, 4], [3, 5]]);

/** `get status` at `at`: the nodes listed, STARTED unless `down`; the master's place in the ring never changes here. */
function obs(at: number, listed: number[], down: number[] = []): RollInput {
  const o: Observation = {
    at,
    connected: true,
    error: null,
    nodes: listed.map((nodeId) => ({ nodeId, status: down.includes(nodeId) ? 'NOT_STARTED' : 'STARTED', nodeGroup: nodeId < 4 ? 0 : 1, dynamicId: nodeId, startPhase: 0 })),
    criticalAlerts: [],
    restartCompleted: null,
    ndb: passingNdb(at),
  };
  return { kind: 'observe', obs: o };
}

function run(inputs: RollInput[]): { machine: RollMachine; events: string[] } {
  const { machine, events } = drive(plan, inputs);
  return { machine, events: events.map((e) => e.event) };
}

const ALL = [2, 3, 4, 5];
/** Step 1 sent and accepted, its nodes seen down, then back STARTED while node 3, their partner, is missing from the status. */
const stepBackWithoutPartner = [{ kind: 'start' } as const, obs(0, ALL), { kind: 'restart-ok', attempt: 1, at: 10 } as const, obs(1000, ALL, [2, 4]), obs(2000, [2, 4, 5])];

test('a step is done only when its node groups are whole again, not when its own nodes are STARTED', () => {
  const waiting = run(stepBackWithoutPartner);
  assert.equal(waiting.machine.phase.kind, 'waiting', 'node group 0 has one of its two nodes in the status');
  assert.ok(!waiting.events.includes('started'));
  const done = run([...stepBackWithoutPartner, obs(3000, ALL)]);
  assert.deepEqual({ phase: done.machine.phase.kind, step: done.machine.step, results: done.machine.results.map((r) => r.nodes) }, { phase: 'checking', step: 1, results: [[2, 4]] });
  assert.ok(done.events.includes('started'));
});

test('a step whose node groups are not whole again within the step timeout halts, naming the node group', () => {
  const { machine } = run([...stepBackWithoutPartner, obs(25_000, [2, 4, 5])]);
  assert.equal(machine.phase.kind, 'halted');
  assert.match(machine.phase.kind === 'halted' ? machine.phase.reason : '', /STARTED again, but not their node groups within 20 s of its restart: node group 0 has 1 of 2 nodes up \(node 2 in the status\)/);
});
