import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { test } from 'node:test';
import WebSocket from 'ws';
import { RESTART_PHASES } from '../../../../contract/page-safe/restart-phases.js';
import type { RollingPlanView } from '../../../../contract/schemas/rolling-restart.js';
import type { ClusterSnapshot } from '../../../../contract/schemas/snapshot.js';
import { MgmClient } from '../../../../../native-mgm/client/mgm-client.js';
import { startSimulator } from '../../../../../native-mgm/sim/index.js';
import { createEngine } from '../../../create-engine.js';
import { createReplayEngine } from '../../../recording/replay.js';
import { reportsOfRecording } from '../../runs/recording-runs.js';
import type { EngineHost } from '../../../core/engine-host.js';
import { startServeServer } from '../../../../serve/serve-server.js';
import { viewerHandlers } from '../../../../serve/access/viewer-access.js';
import { initialMachine } from '../execution/executor.js';
import { fourNodePlan } from './four-node-plan.js';
import { ClusterWitness } from './sim-harness.js';

const SPEED = 10;
/**
 * restart_info counts sim seconds: at speed 10 a step is over in about a second of wall time, shorter than one
 * fast reading of it. At 2 each phase is read while it runs.
 */
const NDBINFO_SPEED = 2;

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const STEP_PHASES = ['step 1: nodes 2, 4', 'step 2: nodes 3, 5'];

const planOf = (engine: EngineHost): Promise<RollingPlanView | null> => engine.handlers.getRollingRestart({});

test('serve hosts the rolling restart over HTTP: plan with hazards, start, every node restarted once as planned work, recorded as a run with a phase per step, phases and ETA from ndbinfo', async (t) => {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', dataNodes: 4, speed: NDBINFO_SPEED }, actionsEnabled: true, pollIntervalMs: 500 });
  const sim = engine.simulator;
  assert.ok(sim?.sql, 'the built-in simulator brings its SQL node');
  const witness = new ClusterWitness(sim);
  const server = await startServeServer({ engine, staticDir: tmpdir(), host: '127.0.0.1', port: 0, readyWithinMs: 10_000 });
  t.after(async () => {
    witness.close();
    await server.close();
    await engine.close();
  });
  const api = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> => {
    const res = await fetch(new URL(path, server.url), { method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }) });
    return { status: res.status, json: await res.json() };
  };
  await until('every data node STARTED and ndbinfo up', async () => {
    const s = (await engine.handlers.getSnapshot({})) as ClusterSnapshot;
    return s.nodes.filter((n) => n.type === 'NDB').length === 4 && s.nodes.every((n) => n.type !== 'NDB' || n.status === 'STARTED') && s.ndbinfo?.source.status === 'up';
  });
  assert.deepEqual((await api('GET', '/api/rolling-restart')).json, null);

  // A plan not started is replaced by the next one; on a loaded machine a poll can go stale for a moment, which is a
  // hazard (rightly): plan again until the cluster is seen healthy.
  const plan = await until('a plan with nothing in its way', async () => {
    const planned = await api('POST', '/api/rolling-restart', { order: 'node-group' });
    assert.equal(planned.status, 201, JSON.stringify(planned.json));
    const p = planned.json as RollingPlanView;
    return p.steps.every((s) => s.hazards.length === 0) ? p : null;
  });
  assert.equal(plan.state, 'planned');
  assert.equal(plan.steps.length, 2);
  assert.deepEqual(plan.steps.map((s) => s.hazards), [[], []], 'a healthy cluster: nothing would stop either step');
  assert.match(plan.manual.join('\n'), /management server \d+: restart it by hand/);
  assert.equal(witness.stops.size, 0, 'planning sends nothing');
  assert.equal((await api('POST', '/api/rolling-restart/nope/start')).status, 404);

  const started = await api('POST', `/api/rolling-restart/${plan.planId}/start`);
  assert.equal(started.status, 200, JSON.stringify(started.json));
  assert.equal((await api('POST', `/api/rolling-restart/${plan.planId}/start`)).status, 409, 'started once');
  // Step 2's nodes restart with step 1's restart_info phases as their baseline: an ETA from ndbinfo.
  const fromNdbinfo = await until('an ETA from ndbinfo while step 2 runs', async () => {
    const v = await planOf(engine);
    return v && v.currentStep === 2 && v.state === 'waiting' && v.eta.source === 'ndbinfo' && v.eta.finishAt !== null ? v : null;
  });
  assert.ok(fromNdbinfo.eta.stepMs !== null && fromNdbinfo.eta.stepMs > 0);
  const done = await until('the plan done', async () => {
    const v = await planOf(engine);
    return v?.state === 'done' ? v : null;
  });
  for (const id of sim.model.data.keys()) assert.equal(witness.stopCount(id), 1, `node ${id} restarted exactly once`);
  assert.deepEqual(witness.groupsWithoutLiveNode, []);
  assert.deepEqual(done.steps.map((s) => s.state), ['done', 'done']);
  assert.ok(done.steps.every((s) => s.durationMs !== null && s.durationMs > 0));
  assert.match(done.log.map((l) => l.text).join('\n'), /step 1: restart sent for nodes .*\n[\s\S]*done: restarted nodes/);

  const snap = (await engine.handlers.getSnapshot({})) as ClusterSnapshot;
  // Planned work: no alarm for any node the plan restarted.
  const history = await engine.handlers.getAlertHistory({});
  const alarms = JSON.stringify(history).match(/"kind":"(node-down|node-group-degraded|node-group-offline)"/g) ?? [];
  assert.deepEqual(alarms, []);
  const run = snap.runs?.find((r) => r.id === done.runId);
  assert.ok(run, 'recorded as a run');
  assert.notEqual(run.end, null);
  assert.deepEqual(run.phases.map((p) => p.name), done.steps.map((s) => `step ${s.step}: nodes ${s.nodes.join(', ')}`));
  // Each restarted node's phases: restart_info completed, its previous restart unknown (the simulator's first).
  for (const n of snap.ndbinfoNodes ?? []) assert.equal(n.restart?.inProgress, false, `node ${n.nodeId}: ${JSON.stringify(n.restart)}`);
  // The run's report times each node's restart, and by phase as restart_info counted it.
  const [report] = (await engine.handlers.getRunReports({ runIds: [run.id], figure: 'transactions' })).runs;
  assert.ok(report);
  const restarts = report.summary.restarts;
  // Step by step; a step's nodes go down together, in either order.
  let taken = 0;
  for (const step of done.steps) {
    const ids = restarts.slice(taken, (taken += step.nodes.length)).map((r) => r.nodeId);
    assert.deepEqual(ids.sort(), [...step.nodes].sort(), `step ${step.step}`);
  }
  assert.equal(restarts.length, taken, 'each node once');
  for (const r of restarts) {
    assert.ok(r.upAt !== null && r.upAt > r.downAt && r.downAt >= run.start && r.upAt <= (run.end ?? 0), JSON.stringify(r));
    const total = snap.ndbinfoNodes?.find((n) => n.nodeId === r.nodeId)?.restart?.totalSecs;
    assert.ok(r.phases && r.phases.length > 0, `node ${r.nodeId} has phases: ${JSON.stringify(r)}`);
    assert.ok(r.phases.every((p) => RESTART_PHASES.some((k) => k.key === p.key && k.words === p.words) && p.secs > 0), JSON.stringify(r.phases));
    assert.ok(total !== undefined && r.phases.reduce((sum, p) => sum + p.secs, 0) <= total, 'the phases shown add up to at most the restart');
  }
  const text = (await engine.handlers.exportRuns({ runIds: [run.id], figure: 'transactions', format: 'md' })).content;
  const first = restarts[0]?.phases?.[0];
  assert.ok(first);
  assert.match(text, new RegExp(`### Data nodes down during the run[\\s\\S]*\\| ${restarts[0]?.nodeId} \\| .* \\| .* \\| \\d+\\.\\d s \\| ${first.words} ${first.secs} s`));
});

test('without the SQL source and before any step was timed, the plan ETA is the restart the engine last observed', async () => {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', dataNodes: 4, speed: SPEED, sql: false }, actionsEnabled: true, pollIntervalMs: 200, rollingStateDir: await mkdtemp(join(tmpdir(), 'ndbtop-rolling-')) });
  const sim = engine.simulator;
  assert.ok(sim);
  const other = new MgmClient({ connectstring: sim.connectstring });
  try {
    await until('every data node STARTED', async () => ((await engine.handlers.getSnapshot({})) as ClusterSnapshot).nodes.filter((n) => n.type === 'NDB' && n.status === 'STARTED').length === 4);
    assert.equal((await engine.handlers.planRollingRestart({ order: 'node-group', pauseMs: 0 })).eta.source, 'none', 'nothing seen, nothing known');
    await other.restart([3]);
    const observed = await until('node 3 seen down and back', async () => {
      const r = ((await engine.handlers.getSnapshot({})) as ClusterSnapshot).rollingRestart?.restarts.find((x) => x.nodeId === 3 && x.to !== null);
      return r?.to ? r.to - r.from : null;
    });
    const plan = await engine.handlers.planRollingRestart({ order: 'node-group', pauseMs: 5000 });
    assert.deepEqual({ stepMs: plan.eta.stepMs, source: plan.eta.source }, { stepMs: observed, source: 'previous restarts' });
    // Not started yet: two steps and the pause between them from now.
    assert.ok(plan.eta.finishAt !== null && Math.abs(plan.eta.finishAt - (plan.updatedAt + 2 * observed + 5000)) < 1000, JSON.stringify(plan));
  } finally {
    other.close();
    await engine.close();
  }
});

test('without --allow-actions every rolling-restart request but reading is refused, and a viewer reads that as forbidden', async () => {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', dataNodes: 2, speed: SPEED, sql: false }, actionsEnabled: false, pollIntervalMs: 200 });
  try {
    await assert.rejects(engine.handlers.planRollingRestart({ order: 'node-group', pauseMs: 0 }), /operator action/);
    assert.equal(await engine.handlers.getRollingRestart({}), null);
    const viewer = viewerHandlers(engine.handlers, false);
    await assert.rejects(viewer.startRollingRestart({ planId: 'x' }), (err: Error & { code?: string }) => err.code === 'FORBIDDEN');
  } finally {
    await engine.close();
  }
});

test('ndbtop stopped mid-step: the next start shows the plan halted at that step, and a resume finishes it without restarting a node twice, in the same run', async (t) => {
  const sim = await startSimulator({ scenario: 'idle', dataNodes: 4, speed: SPEED, replicas: 2 });
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-rolling-'));
  const witness = new ClusterWitness(sim);
  t.after(async () => {
    witness.close();
    await sim.close();
    await rm(dir, { recursive: true, force: true });
  });
  // Both processes record to one file, as `serve --record FILE` started again appends to it.
  const recordFile = join(dir, 'rec.ndbtop');
  const options = { host: 'serve' as const, clusters: [{ connectstring: sim.connectstring }], actionsEnabled: true, pollIntervalMs: 200, rollingStateDir: dir, recordFile };
  const first = await createEngine(options);
  let planId: string;
  let runId: string | null;
  try {
    await until('every data node STARTED', async () => {
      const s = (await first.handlers.getSnapshot({})) as ClusterSnapshot;
      return s.nodes.filter((n) => n.type === 'NDB' && n.status === 'STARTED').length === 4;
    });
    // No SQL source here: the redo fill cannot be checked, which the operator allows.
    planId = (await first.handlers.planRollingRestart({ order: 'node-group', pauseMs: 0, checks: { allowUnchecked: true } })).planId;
    await first.handlers.startRollingRestart({ planId });
    runId = (await until('step 1 sent', async () => {
      const v = await planOf(first);
      return v?.state === 'waiting' ? v : null;
    })).runId;
    assert.ok(runId, 'recorded as a run');
  } finally {
    await first.close();
  }
  const second = await createEngine(options);
  try {
    const back = await until('the plan read back', () => planOf(second));
    assert.equal(back.planId, planId);
    assert.equal(back.state, 'halted');
    assert.equal(back.halt?.code, 'interrupted');
    assert.equal(back.currentStep, 1);
    assert.match(back.halt?.reason ?? '', /was sent and is not sent again/);
    assert.equal(back.runId, runId, 'the plan read back keeps its run');
    await until('every data node STARTED again', async () => {
      const s = (await second.handlers.getSnapshot({})) as ClusterSnapshot;
      return s.nodes.filter((n) => n.type === 'NDB' && n.status === 'STARTED').length === 4;
    });
    await second.handlers.resumeRollingRestart({ planId, skip: false });
    const done = await until('done after the resume', async () => {
      const v = await planOf(second);
      return v?.state === 'done' || v?.state === 'halted' ? v : null;
    });
    assert.equal(done.state, 'done', JSON.stringify(done.halt));
    for (const id of sim.model.data.keys()) assert.equal(witness.stopCount(id), 1, `node ${id} restarted exactly once`);
    const live = ((await second.handlers.getSnapshot({})) as ClusterSnapshot).runs?.find((r) => r.id === runId);
    assert.deepEqual(live && { phases: live.phases.map((p) => p.name), stopped: live.end !== null }, { phases: STEP_PHASES, stopped: true }, 'the resumed steps belong to the run');
  } finally {
    await second.close();
  }
  // The recording both processes wrote: one run, both steps its phases (a new process's part of the file starts the
  // cluster afresh, so the run it adopted is the one that goes on).
  const { reports } = await reportsOfRecording(recordFile, 'rec', createReplayEngine);
  assert.deepEqual(
    reports.map((r) => ({ id: r.id, phases: r.phases.map((p) => p.name), stopped: r.end !== null })),
    [{ id: runId, phases: STEP_PHASES, stopped: true }],
  );
});

test('a plan an earlier ndbtop wrote for this connectstring, without its cluster: not applied, and said in the log of the next plan', async (t) => {
  const sim = await startSimulator({ scenario: 'idle', dataNodes: 4, speed: SPEED, replicas: 2 });
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-rolling-'));
  t.after(async () => {
    await sim.close();
    await rm(dir, { recursive: true, force: true });
  });
  // Another cluster's plan once at this address, halted at its step 2 on node 5, as the old per-connectstring file kept it.
  const old = initialMachine(fourNodePlan('node-group', {}));
  const halted = { ...old, step: 1, phase: { kind: 'halted', code: 'unsafe', reason: 'node 5 is NO_CONTACT' } };
  const legacy = join(dir, `rolling-restart-${sim.connectstring.replace(/[^A-Za-z0-9.-]+/g, '_')}.json`);
  await writeFile(legacy, JSON.stringify({ version: 1, machine: halted, history: [], runId: null }));
  const engine = await createEngine({ host: 'serve', clusters: [{ connectstring: sim.connectstring }], actionsEnabled: true, pollIntervalMs: 200, rollingStateDir: dir });
  t.after(() => engine.close());
  await until('every data node STARTED and the configuration read', async () => {
    const s = (await engine.handlers.getSnapshot({})) as ClusterSnapshot;
    return s.nodes.filter((n) => n.type === 'NDB' && n.status === 'STARTED').length === 4 && s.configGeneration != null;
  });
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(await planOf(engine), null, 'no plan shown: the old file is not this cluster\'s');
  // A viewer in serve mode watches while the operator plans.
  const server = await startServeServer({ engine, staticDir: tmpdir(), host: '127.0.0.1', port: 0 });
  t.after(() => server.close());
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`);
  t.after(() => ws.terminate());
  const pushes: string[] = [];
  ws.on('message', (data) => pushes.push(String(data)));
  await once(ws, 'open');
  const plan = await engine.handlers.planRollingRestart({ order: 'node-group', pauseMs: 0 });
  assert.equal(plan.state, 'planned');
  assert.match(plan.log[0]?.text ?? '', /^the old state file was written by an earlier ndbtop that did not record which cluster it belongs to; it holds a plan made for c \(data nodes 2, 4, 3, 5, halted at step 2 of 2\), which is not applied to cluster "MC_SIMULATED" .*\(left as it is/);
  // The operator at the server reads where the file is; a viewer never does (the line is derived once, both ways).
  assert.equal(plan.log[0]?.detail, plan.log[0]?.text.replace('the old state file', legacy));
  const viewer = { plan: await (await fetch(new URL('/api/rolling-restart', server.url))).text(), snapshot: await (await fetch(new URL('/api/snapshot', server.url))).text() };
  await until('the plan pushed to the viewer', async () => pushes.some((p) => p.includes('the old state file was written')));
  for (const [what, text] of Object.entries({ ...viewer, pushes: pushes.join('\n') })) {
    assert.ok(text.includes('the old state file was written'), `${what}: the plan's log`);
    assert.ok(!text.includes(dir) && !text.includes('"detail"'), `${what}: no path of the server`);
  }
  assert.equal(await readFile(legacy, 'utf8'), JSON.stringify({ version: 1, machine: halted, history: [], runId: null }), 'left as it is');
});
