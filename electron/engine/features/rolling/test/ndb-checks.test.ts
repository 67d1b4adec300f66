import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventText } from '../execution/event-text.js';
import { DEFAULT_CHECKS } from '../plan/ndb-checks.js';
import type { CheckSettings, NdbFacts, Observation, RollInput, RollingPlan } from '../types.js';
import { drive, fourNodePlan } from './four-node-plan.js';
import { passingNdb } from './ndb-facts.js';

/** Four data nodes STARTED (node groups 0: 2, 3; 1: 4, 5), at `at`, with `ndb` changed from all-passing facts. */
function seen(at: number, change: Partial<NdbFacts> = {}): RollInput {
  const obs: Observation = {
    at,
    connected: true,
    error: null,
    nodes: [2, 3, 4, 5].map((nodeId) => ({ nodeId, status: 'STARTED', nodeGroup: nodeId < 4 ? 0 : 1, dynamicId: nodeId, startPhase: 0 })),
    criticalAlerts: [],
    restartCompleted: null,
    ndb: { ...passingNdb(at), ...change },
  };
  return { kind: 'observe', obs };
}

const planWith = (checks: Partial<CheckSettings> = {}): RollingPlan => ({ ...fourNodePlan('node-group', {}), checks: { ...DEFAULT_CHECKS, ...checks } });
const texts = (events: ReturnType<typeof drive>['events']): string[] => events.map(eventText);
const backup: Partial<NdbFacts> = { backup: { known: true, value: { backupId: 12, startedAt: 0 } } };

test('a backup running: the step waits, said once, and goes on when it ends; the checks it passed are said with their figures', () => {
  const { machine, events } = drive(planWith(), [{ kind: 'start' }, seen(1000, backup), seen(2000, backup), seen(3000, backup)]);
  assert.equal(machine.phase.kind, 'checking');
  assert.deepEqual(texts(events).filter((t) => t.includes('backup 12')), ['step 1: backup 12 is running: a data node restarted now makes it fail; waiting for it to end'], 'the wait is said once');
  const after = drive(planWith(), [{ kind: 'start' }, seen(1000, backup), seen(2000, backup), seen(4000)]);
  assert.equal(after.machine.phase.kind, 'restarting');
  const checked = after.events.find((e) => e.event === 'checked');
  assert.ok(checked && checked.event === 'checked');
  assert.equal(eventText(checked), 'step 1: checked: backup none running; redo 10 % on node 2; global checkpoint 0.0 s ago; arbitrator node 1');
});

test('a backup running with --backup-running halt: halted, in words', () => {
  const { machine } = drive(planWith({ backup: 'halt' }), [{ kind: 'start' }, seen(1000, backup)]);
  assert.deepEqual(machine.phase, { kind: 'halted', code: 'unsafe', reason: 'backup 12 is running: a data node restarted now makes it fail' });
});

test("redo over the limit on a partner of the step's node: halted with the figure; resumed once it cleared, the step goes", () => {
  const redo = (pct: number): Partial<NdbFacts> => ({ redo: { known: true, value: [2, 3, 4, 5].map((nodeId) => ({ nodeId, percent: nodeId === 3 ? pct : 10, at: 0 })) } });
  const halted = drive(planWith(), [{ kind: 'start' }, seen(1000, redo(72))]);
  assert.equal(halted.machine.phase.kind, 'halted');
  assert.match(halted.machine.phase.kind === 'halted' ? halted.machine.phase.reason : '', /the redo log is filled over the limit of 60 % \(node 3 72 %\)/);
  assert.equal(drive(planWith({ redoLimitPct: 80 }), [{ kind: 'start' }, seen(1000, redo(72))]).machine.phase.kind, 'restarting', 'under a higher limit it goes');
  const goes = drive(planWith(), [{ kind: 'start' }, seen(1000, redo(72)), { kind: 'resume' }, seen(2000, redo(30))]);
  assert.equal(goes.machine.phase.kind, 'restarting');
  const stillOver = drive(planWith(), [{ kind: 'start' }, seen(1000, redo(72)), { kind: 'resume' }, seen(2000, redo(65))]);
  assert.equal(stillOver.machine.phase.kind, 'halted', 'a resume while it is still over halts again');
});

test('the global checkpoint lagging halts with its figure; none seen yet within the limit waits; resumed once one completes, the step goes', () => {
  const gcp = (completedAt: number | null, watchedSince = 0): Partial<NdbFacts> => ({ gcp: { known: true, value: { gci: completedAt === null ? null : 41, completedAt, watchedSince } } });
  const lag = drive(planWith(), [{ kind: 'start' }, seen(30_000, gcp(5000))]);
  assert.deepEqual(lag.machine.phase, { kind: 'halted', code: 'unsafe', reason: 'the global checkpoint lags: the last global checkpoint (41) completed 25 s ago (limit 10 s)' });
  const early = drive(planWith(), [{ kind: 'start' }, seen(2000, gcp(null, 1000))]);
  assert.equal(early.machine.phase.kind, 'checking');
  assert.match(texts(early.events).join('\n'), /waiting for a global checkpoint to complete \(none seen yet in 1\.0 s of watching\)/);
  const goes = drive(planWith(), [{ kind: 'start' }, seen(30_000, gcp(5000)), { kind: 'resume' }, seen(31_000, gcp(30_500))]);
  assert.equal(goes.machine.phase.kind, 'restarting');
});

test('no arbitrator halts, saying how it was told; resumed once one is there, the step goes', () => {
  const none: Partial<NdbFacts> = { arbitrator: { known: true, value: { nodeId: null, how: 'the last ArbitState (code 32) said the arbitrator failed or exited, and none was chosen since' } } };
  const halted = drive(planWith(), [{ kind: 'start' }, seen(1000, none)]);
  assert.match(halted.machine.phase.kind === 'halted' ? halted.machine.phase.reason : '', /^no arbitrator \(the last ArbitState \(code 32\) said the arbitrator failed/);
  assert.equal(drive(planWith(), [{ kind: 'start' }, seen(1000, none), { kind: 'resume' }, seen(2000)]).machine.phase.kind, 'restarting');
});

test('a check that cannot be made halts, said as such; allowed by the operator, the step goes and says it was not checked', () => {
  const noSql: Partial<NdbFacts> = { redo: { known: false, why: 'no SQL source: ndbinfo logspaces is not read' } };
  const halted = drive(planWith(), [{ kind: 'start' }, seen(1000, noSql)]);
  assert.equal(halted.machine.phase.kind === 'halted' && halted.machine.phase.reason, 'the redo log fill cannot be checked (no SQL source: ndbinfo logspaces is not read): halting is the safe side (allow unchecked checks to go on without it)');
  const allowed = drive(planWith({ allowUnchecked: true }), [{ kind: 'start' }, seen(1000, noSql)]);
  assert.equal(allowed.machine.phase.kind, 'restarting');
  assert.match(texts(allowed.events).join('\n'), /checked: backup none running; the redo log fill not checked \(no SQL source: ndbinfo logspaces is not read\): allowed by the operator; global checkpoint/);
});
