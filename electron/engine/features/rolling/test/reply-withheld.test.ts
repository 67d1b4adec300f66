import assert from 'node:assert/strict';
import { test } from 'node:test';
import { step } from '../execution/executor.js';
import { waitingFor } from '../execution/step-progress.js';
import type { NodeStatus } from '../../../../contract/schemas/node.js';
import type { Observation, RollInput, RollMachine } from '../types.js';
import { drive as driveFrom, fourNodePlan } from './four-node-plan.js';
import { passingNdb } from './ndb-facts.js';

const plan = fourNodePlan('node-id', { leaveMs: 3000, stepMs: 12_000 });
const drive = (inputs: RollInput[]): ReturnType<typeof driveFrom> => driveFrom(plan, inputs);

const ALL = [2, 3, 4, 5];

/** `get status` at `at`: every node STARTED with its first place in the ring unless `now` says otherwise. */
function seen(at: number, now: Record<number, { status: NodeStatus; dynamicId?: number; startPhase?: number }> = {}): Observation {
  return {
    at,
    connected: true,
    error: null,
    nodes: ALL.map((nodeId) => ({ nodeId, status: now[nodeId]?.status ?? 'STARTED', nodeGroup: nodeId < 4 ? 0 : 1, dynamicId: now[nodeId]?.dynamicId ?? nodeId, startPhase: now[nodeId]?.startPhase ?? 0 })),
    criticalAlerts: [],
    restartCompleted: null,
    ndb: passingNdb(at),
  };
}

const unreachable = (at: number): Observation => ({ at, connected: false, error: 'connect ECONNREFUSED 127.0.0.1:1186', nodes: [], criticalAlerts: [], restartCompleted: null });
const observe = (obs: Observation): RollInput => ({ kind: 'observe', obs });

/** Step 1 (node 2) checked and sent at 0; no reply ever comes in these tests unless one says so. */
const SENT: RollInput[] = [{ kind: 'start' }, observe(seen(0))];

test('the restart reply never comes, but the status shows node 2 down and STARTED again: the step is done, said in words', () => {
  const { machine, events } = drive([...SENT, observe(seen(1000, { 2: { status: 'NOT_STARTED' } })), observe(seen(2000, { 2: { status: 'STARTED', dynamicId: 9 } }))]);
  assert.deepEqual({ phase: machine.phase.kind, step: machine.step, results: machine.results.map((r) => [r.nodes, r.outcome, r.durationMs]) }, { phase: 'checking', step: 1, results: [[[2], 'restarted', 2000]] });
  const note = events.find((e) => e.event === 'note');
  assert.match(note?.event === 'note' ? note.text : '', /no reply to the restart came in 2 s, but node 2 went down and is STARTED again: the step is done/);
  // A reply arriving after that belongs to a step that is over: it changes nothing.
  const late = step(machine, { kind: 'restart-ok', attempt: 1, at: 2500 });
  assert.deepEqual(late.machine, machine);
});

test('a restart seen only as a new place in the heartbeat ring completes the step too', () => {
  const { machine } = drive([...SENT, observe(seen(1500, { 2: { status: 'STARTED', dynamicId: 9 } }))]);
  assert.deepEqual(machine.results.map((r) => r.nodes), [[2]]);
});

test('no reply and no sign of a restart: the step halts at the step timeout, saying the reply never came and where the node is', () => {
  const waiting = drive([...SENT, observe(seen(11_000))]);
  assert.equal(waiting.machine.phase.kind, 'restarting', 'still within the step timeout');
  const { machine } = drive([...SENT, observe(seen(11_000)), observe(seen(12_500))]);
  assert.equal(machine.phase.kind, 'halted');
  assert.deepEqual(machine.phase.kind === 'halted' ? [machine.phase.code, machine.phase.reason] : [], [
    'timeout',
    'the step has not completed within 12 s of its restart: node 2 STARTED with no sign it restarted; the management server never answered the restart (the request is given up)',
  ]);
});

test('no reply, the node stuck starting: halted at the step timeout with its start phase', () => {
  const { machine } = drive([...SENT, observe(seen(1000, { 2: { status: 'STARTING', startPhase: 3 } })), observe(seen(13_000, { 2: { status: 'STARTING', startPhase: 3 } }))]);
  assert.match(machine.phase.kind === 'halted' ? machine.phase.reason : '', /node 2 STARTING \(phase 3\); the management server never answered the restart/);
});

test('the management server gone after the reply was lost: the halt names it, not a node that "never left STARTED"', () => {
  const lost: RollInput = { kind: 'restart-lost', attempt: 1, at: 500, error: 'management server 127.0.0.1:1186 closed the connection' };
  const within = drive([...SENT, lost, observe(unreachable(3000))]);
  assert.equal(within.machine.phase.kind, 'waiting', 'no deadline has passed yet: the plan waits');
  const { machine, events } = drive([...SENT, lost, observe(unreachable(3000)), observe(unreachable(4000))]);
  assert.equal(machine.phase.kind, 'halted');
  const [code, reason] = machine.phase.kind === 'halted' ? [machine.phase.code, machine.phase.reason] : [];
  assert.equal(code, 'unreachable');
  assert.equal(reason, 'could not reach the management server (connect ECONNREFUSED 127.0.0.1:1186) when the leave timeout (3 s) passed: whether node 2 restarted and came back cannot be told');
  assert.doesNotMatch(JSON.stringify(events), /never left STARTED/);
});

test('the management server gone after node 2 was seen leaving: halted at the step timeout as unreachable', () => {
  const { machine } = drive([...SENT, observe(seen(1000, { 2: { status: 'NOT_STARTED' } })), observe(unreachable(5000)), observe(unreachable(12_500))]);
  assert.deepEqual(machine.phase.kind === 'halted' ? [machine.phase.code, machine.phase.reason] : [], [
    'unreachable',
    'could not reach the management server (connect ECONNREFUSED 127.0.0.1:1186) when the step timeout (12 s) passed: whether node 2 restarted and came back cannot be told',
  ]);
});

test('the management server unreachable when the next step is checked: halted as unreachable, nothing sent', () => {
  const { machine } = drive([{ kind: 'start' }, observe(unreachable(0))]);
  assert.deepEqual(machine.phase.kind === 'halted' ? [machine.phase.code, machine.phase.reason] : [], ['unreachable', 'could not reach the management server (connect ECONNREFUSED 127.0.0.1:1186): nothing is sent until it answers']);
  assert.deepEqual(machine.sent, []);
});

test('what the plan waits for, in words, with the deadline that bounds it', () => {
  const at = (inputs: RollInput[]): RollMachine => drive(inputs).machine;
  const sent = at(SENT);
  assert.equal(waitingFor(sent, seen(6000, { 2: { status: 'STARTING', startPhase: 4 } })), 'waiting for node 2 to go down and come back STARTED (now node 2 STARTING (phase 4)) and for the reply to the restart (none yet, 6 s after sending it): 6 s of the step timeout (12 s)');
  const answered = at([...SENT, { kind: 'restart-ok', attempt: 1, at: 1000 }]);
  assert.equal(waitingFor(answered, seen(2000)), 'waiting for node 2 to go down and come back STARTED (now node 2 STARTED with no sign it restarted): 2 s of the step timeout (12 s), 1 s of the leave timeout (3 s)');
  assert.equal(waitingFor(answered, unreachable(7000)), 'waiting for the management server, which could not be reached (connect ECONNREFUSED 127.0.0.1:1186): 7 s of the step timeout (12 s)');
  assert.equal(waitingFor(at([{ kind: 'start' }]), seen(0)), null, 'checking waits for nothing');
});
