import assert from 'node:assert/strict';
import { test } from 'node:test';
import { baselineFor, overran, phaseProgress, RESTART_PHASES, runningPhase, type RestartTimes } from '../page-safe/restart-phases.js';
import { RESTART_PHASE_COLUMNS } from '../../../ndbinfo/schema/tables.js';

const zeros = (): Record<string, number> => Object.fromEntries(RESTART_PHASE_COLUMNS.map((c) => [c, 0]));

/** A completed restart: 2 s failure, 3 s join, 1 s permission, 4 s dictionary, 1 s include, 20 s restore, 30 s redo, 10 s index, 60 s copy, 15 s lcp, 2 s handover. */
function completed(scale = 1): RestartTimes {
  const p = zeros();
  const set: Record<string, number> = {
    secs_to_complete_node_failure: 2,
    secs_to_allocate_node_id: 1,
    secs_to_include_in_heartbeat_protocol: 1,
    secs_until_wait_for_ndbcntr_master: 1,
    secs_to_get_start_permitted: 1,
    secs_to_copy_meta_data: 4,
    secs_to_include_node: 1,
    secs_restore_fragments: 20,
    secs_exec_redo_log: 30,
    secs_index_rebuild: 10,
    secs_for_local_recovery: 60,
    secs_to_synchronize_starting_node: 60,
    secs_wait_lcp_for_restart: 15,
    secs_wait_subscription_handover: 2,
  };
  for (const [k, v] of Object.entries(set)) p[k] = v * scale;
  const total = Object.entries(p).reduce((s, [k, v]) => (k === 'secs_for_local_recovery' ? s : s + v), 0);
  return { at: 0, phases: p, totalSecs: total, statusName: 'RESTART_COMPLETED', inProgress: false };
}

test('every restart_info phase column but the spanning local recovery belongs to exactly one operator phase, in the server order', () => {
  const mapped = RESTART_PHASES.flatMap((p) => p.columns);
  assert.deepEqual(mapped, RESTART_PHASE_COLUMNS.filter((c) => c !== 'secs_for_local_recovery'));
  assert.deepEqual(
    RESTART_PHASES.map((p) => p.words).slice(2),
    ['waiting for permission', 'copying the dictionary', 'joining the checkpoints', 'restoring fragments', 'applying the disk data undo log', 'executing the redo log', 'rebuilding indexes', 'copying data from live nodes', 'waiting for a local checkpoint', 'handing over event subscriptions'],
  );
});

test('the running phase follows the last status reached; a completed restart has none', () => {
  const r = (statusName: string, inProgress = true): RestartTimes => ({ at: 0, phases: zeros(), totalSecs: 0, statusName, inProgress });
  assert.equal(runningPhase(r('NODE_FAILED')), 'failure');
  assert.equal(runningPhase(r('START_PERMITTED')), 'dictionary');
  assert.equal(runningPhase(r('LOCAL_RECOVERY_STARTED')), 'restore');
  assert.equal(runningPhase(r('UNDO_DD_COMPLETED')), 'redo');
  assert.equal(runningPhase(r('COPY_FRAGMENTS_STARTED')), 'copy');
  assert.equal(runningPhase(r('WAIT_SUMA_HANDOVER')), 'handover');
  assert.equal(runningPhase(r('RESTART_COMPLETED', false)), null);
  // A non-master's view names no phase of DIH's: nothing is guessed.
  assert.equal(runningPhase(r('NODE_GETTING_PERMIT')), null);
});

test('phase ETA: phases done are timed, the running one counts from where restart_info left off, the rest come from the baseline', () => {
  const base = completed();
  const p = zeros();
  Object.assign(p, { secs_to_complete_node_failure: 2, secs_to_allocate_node_id: 1, secs_to_include_in_heartbeat_protocol: 1, secs_until_wait_for_ndbcntr_master: 1, secs_to_get_start_permitted: 1, secs_to_copy_meta_data: 4, secs_to_include_node: 1, secs_restore_fragments: 20 });
  // Restore done at 31 s; redo has run 12 s more. Undo took 0 and is passed.
  const startedAt = 1_000_000;
  const now = startedAt + 43_000;
  const running: RestartTimes = { at: now - 500, phases: p, totalSecs: 31, statusName: 'UNDO_DD_COMPLETED', inProgress: true };
  const out = phaseProgress(running, now, startedAt, [base], 'previous restart');
  assert.equal(out.current, 'redo');
  const row = (k: string) => out.rows.find((r) => r.key === k)!;
  assert.deepEqual([row('restore').state, row('restore').secs], ['done', 20]);
  assert.deepEqual([row('redo').state, row('redo').secs, row('redo').baselineSecs], ['running', 12, 30]);
  assert.equal(row('copy').state, 'pending');
  // Left: redo 30 - 12 = 18, index 10, copy 60, lcp 15, handover 2.
  assert.equal(out.remainingSecs, 105);
  assert.equal(out.etaAt, now + 105_000);
  assert.equal(out.baselineFrom, 'previous restart');
  assert.ok(out.rows.every((r) => !r.overrun));
});

test('phase ETA without a baseline: phases shown, no time left claimed', () => {
  const running: RestartTimes = { at: 0, phases: zeros(), totalSecs: 2, statusName: 'NODE_FAILURE_COMPLETED', inProgress: true };
  const out = phaseProgress(running, 5000, 0, [], null);
  assert.equal(out.current, 'join');
  assert.equal(out.remainingSecs, null);
  assert.equal(out.etaAt, null);
  assert.ok(out.rows.every((r) => r.baselineSecs === null));
});

test('a phase running far longer than its baseline is flagged, and adds no negative time', () => {
  const p = zeros();
  const startedAt = 0;
  // In the copy phase for 200 s against a 60 s baseline.
  const before = completed().totalSecs - 60 - 15 - 2;
  Object.assign(p, completed().phases, { secs_to_synchronize_starting_node: 0, secs_wait_lcp_for_restart: 0, secs_wait_subscription_handover: 0 });
  const running: RestartTimes = { at: 0, phases: p, totalSecs: before, statusName: 'COPY_FRAGMENTS_STARTED', inProgress: true };
  const out = phaseProgress(running, (before + 200) * 1000, startedAt, [completed()], 'previous restart');
  const copy = out.rows.find((r) => r.key === 'copy')!;
  assert.equal(copy.state, 'running');
  assert.equal(copy.overrun, true);
  assert.equal(out.remainingSecs, 15 + 2);
  // Whole seconds and short phases: a 1 s phase taking 8 s is not "much longer".
  assert.equal(overran(8, 1), false);
  assert.equal(overran(12, 1), true);
  assert.equal(overran(50, 30), false);
  assert.equal(overran(61, 30), true);
});

test('baseline: the node’s own previous restart first, else the mean of the round’s other completed restarts', () => {
  const own = completed(2);
  assert.deepEqual(baselineFor(3, own, [{ nodeId: 2, restart: completed() }]), { baselines: [own], from: 'previous restart' });
  const a = completed();
  const b = completed(3);
  const inProgress: RestartTimes = { ...completed(), inProgress: true, statusName: 'NODE_FAILED' };
  const picked = baselineFor(3, null, [
    { nodeId: 2, restart: a },
    { nodeId: 3, restart: completed(5) },
    { nodeId: 4, restart: b },
    { nodeId: 5, restart: inProgress },
    { nodeId: 6, restart: null },
  ]);
  assert.deepEqual(picked, { baselines: [a, b], from: 'other nodes of this rolling restart' });
  const running: RestartTimes = { at: 0, phases: zeros(), totalSecs: 0, statusName: 'NODE_FAILED', inProgress: true };
  const out = phaseProgress(running, 0, 0, picked.baselines, picked.from);
  // Mean of 60 s and 180 s of copying.
  assert.equal(out.rows.find((r) => r.key === 'copy')!.baselineSecs, 120);
  assert.equal(out.remainingSecs, completed(2).totalSecs);
  assert.deepEqual(baselineFor(3, null, []), { baselines: [], from: null });
});
