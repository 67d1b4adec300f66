import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RollingPlanView } from '../../../../contract/schemas/rolling-restart.js';
import type { ClusterSnapshot } from '../../../../contract/schemas/snapshot.js';
import { createEngine } from '../../../create-engine.js';
import { waitFor } from '../../../test/helpers.js';

/**
 * The hosted rolling restart against the simulator, one NDB check at a time: the simulator's knob makes the condition
 * true, the plan shows it on its next step and halts (a backup: waits) with its words, then the knob clears it and the
 * plan goes on (a resume after a halt). Speed 2: a backup lasts 4 s of wall time, a global checkpoint every second.
 */
const SPEED = 2;
const GCP_LAG_MS = 3000;

test('the hosted rolling restart checks what NDB needs: backup running, redo over the limit, global checkpoint lag, no arbitrator', { timeout: 240_000 }, async (t) => {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', dataNodes: 4, speed: SPEED }, actionsEnabled: true, pollIntervalMs: 250 });
  t.after(() => engine.close());
  const model = engine.simulator?.model;
  assert.ok(model && engine.simulator?.sql, 'the built-in simulator brings its SQL node');
  const h = engine.handlers;
  const snapshot = async (): Promise<ClusterSnapshot> => (await h.getSnapshot({})) as ClusterSnapshot;
  const plan = async (): Promise<RollingPlanView> => {
    const p = await h.getRollingRestart({});
    assert.ok(p);
    return p;
  };
  const allStarted = async (): Promise<boolean> => {
    const s = await snapshot();
    return s.nodes.filter((n) => n.type === 'NDB').length === 4 && s.nodes.every((n) => n.type !== 'NDB' || n.status === 'STARTED');
  };
  await waitFor('every data node STARTED and ndbinfo up', async () => (await allStarted()) && (await snapshot()).ndbinfo?.source.status === 'up', 60_000);

  /** A new plan (node by node) whose next step passes every check now, so the condition set after it is the only one. */
  const planClean = async (): Promise<RollingPlanView> =>
    waitFor(
      'a plan whose first step passes every check',
      async () => {
        const p = await h.planRollingRestart({ order: 'node-id', pauseMs: 0, checks: { gcpLagMs: GCP_LAG_MS } });
        const first = p.steps[0];
        return first && first.hazards.length === 0 && first.checks.length === 4 && first.checks.every((c) => c.verdict === 'pass') ? p : null;
      },
      60_000,
    );
  const check = async (name: string) => (await plan()).steps[0]?.checks.find((c) => c.check === name);
  const logHas = async (re: RegExp) => (await plan()).log.some((l) => re.test(l.text));
  /** Resumed (or waited) past the condition: the first step's restart goes out; then the plan is aborted and the cluster settles. */
  const goesOn = async (planId: string, resume: boolean) => {
    if (resume) await h.resumeRollingRestart({ planId, skip: false });
    await waitFor('the first step sent', () => logHas(/^step 1: restart sent for node 2$/), 60_000);
    assert.ok(await logHas(/^step 1: checked: backup none running; redo \d+ % on node \d; global checkpoint [\d.]+ s ago; arbitrator node 1$/), (await plan()).log.map((l) => l.text).join('\n'));
    // Seen leaving STARTED before "back" is asked: on a loaded machine the poll that sees node 2 go can come after
    // the abort, and the next check would plan against a node still on its way down.
    await waitFor('node 2 seen restarting', async () => (await snapshot()).nodes.find((n) => n.nodeId === 2)?.status !== 'STARTED', 60_000);
    await h.abortRollingRestart({ planId });
    await waitFor('node 2 back', async () => (await logHas(/aborted/)) && (await allStarted()), 120_000);
  };

  await t.test('a backup running: the plan waits, said once, and goes on when it ends', async () => {
    const p = await planClean();
    const started = model.backups.start();
    assert.ok('started' in started);
    await waitFor('the backup seen running', async () => (await check('backup'))?.verdict === 'wait');
    await h.startRollingRestart({ planId: p.planId });
    await waitFor('the wait said', () => logHas(/^step 1: backup \d+ is running: a data node restarted now makes it fail; waiting for it to end$/));
    assert.equal((await plan()).state, 'checking');
    await started.completed;
    await goesOn(p.planId, false);
    assert.equal((await plan()).log.filter((l) => /waiting for it to end/.test(l.text)).length, 1, 'the wait is said once');
  });

  await t.test('redo over the limit on a node of the step or its partner: halted with the figure, and goes on when it cleared', async () => {
    const p = await planClean();
    model.activity.redoLog(3).fillTo(0.72);
    await waitFor('the fill read', async () => (await check('redo'))?.verdict === 'halt', 30_000);
    await h.startRollingRestart({ planId: p.planId });
    await waitFor('halted', async () => (await plan()).state === 'halted');
    assert.match((await plan()).halt?.reason ?? '', /the redo log is filled over the limit of 60 % \(node 3 7\d %\)/);
    model.activity.redoLog(3).fillTo(0.1);
    await waitFor('the fill read again', async () => (await check('redo'))?.verdict === 'pass', 30_000);
    await goesOn(p.planId, true);
  });

  await t.test('the global checkpoint lagging: halted with how long ago the last one completed, and goes on once they complete again', async () => {
    const p = await planClean();
    model.checkpoints.stall();
    await waitFor('the lag seen', async () => (await check('gcp'))?.verdict === 'halt', 30_000);
    await h.startRollingRestart({ planId: p.planId });
    await waitFor('halted', async () => (await plan()).state === 'halted');
    assert.match((await plan()).halt?.reason ?? '', /the global checkpoint lags: the last global checkpoint \(\d+\) completed [\d.]+ s ago \(limit 3\.0 s\)/);
    model.checkpoints.release();
    await waitFor('checkpoints again', async () => (await check('gcp'))?.verdict === 'pass', 30_000);
    await goesOn(p.planId, true);
  });

  await t.test('no arbitrator: halted, saying how that is known, and goes on once one is chosen', async () => {
    const p = await planClean();
    model.loseArbitrator();
    await waitFor('the arbitrator seen gone', async () => (await check('arbitrator'))?.verdict === 'halt', 30_000);
    await h.startRollingRestart({ planId: p.planId });
    await waitFor('halted', async () => (await plan()).state === 'halted');
    assert.match((await plan()).halt?.reason ?? '', /^no arbitrator \(the last ArbitState \(code 32\) said the arbitrator failed or exited, and none was chosen since\)/);
    model.selectArbitrator();
    await waitFor('an arbitrator again', async () => (await check('arbitrator'))?.verdict === 'pass', 30_000);
    await goesOn(p.planId, true);
  });
});
