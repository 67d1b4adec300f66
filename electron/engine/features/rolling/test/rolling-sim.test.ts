import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startSimulator, type Simulator } from '../../../../../native-mgm/sim/index.js';
import { ClusterWitness, conductOn, nextEvent } from './sim-harness.js';

const SPEED = 20;

async function withSim(t: { after(fn: () => unknown): void }, options: Parameters<typeof startSimulator>[0]): Promise<{ sim: Simulator; witness: ClusterWitness }> {
  const sim = await startSimulator({ scenario: 'idle', speed: SPEED, replicas: 2, ...options });
  const witness = new ClusterWitness(sim);
  t.after(async () => {
    witness.close();
    await sim.close();
  });
  return { sim, witness };
}

/** Resolves once data node `id` has left STARTED in the model: its restart is really running on the server. */
function leftStarted(sim: Simulator, id: number): Promise<void> {
  return new Promise((resolve) => {
    const off = sim.model.onStatusChange((n) => {
      if (n.id !== id || n.status === 'STARTED') return;
      off();
      resolve();
    });
  });
}

for (const dataNodes of [4, 8, 48]) {
  test(`rolling restart of ${dataNodes} data nodes: each restarted exactly once, no node group ever without a live node`, async (t) => {
    const { sim, witness } = await withSim(t, { dataNodes });
    const run = await conductOn(sim);
    t.after(() => run.close());
    run.conductor.follow();
    run.conductor.input({ kind: 'start' });
    const final = await run.conductor.settled();
    assert.equal(final.phase.kind, 'done', JSON.stringify(final.phase));
    const ids = [...sim.model.data.keys()];
    assert.equal(final.plan.steps.length, 2, 'one node of each of the node groups per step, two replicas: two steps');
    for (const id of ids) assert.equal(witness.stopCount(id), 1, `node ${id} restarted once`);
    for (const id of ids) assert.equal(sim.model.dataNode(id).status, 'STARTED');
    assert.deepEqual(witness.groupsWithoutLiveNode, []);
    assert.ok(witness.seenDown.size > 0, 'the witness saw restarts on its own connection');
    assert.deepEqual(run.events.filter((e) => e.event === 'started').map((e) => (e.event === 'started' ? e.nodes : [])).flat().sort((a, b) => a - b), ids);
  });
}

test('a node outside the next step stops during the pause: the plan halts and restarts nothing more', async (t) => {
  const { sim, witness } = await withSim(t, { dataNodes: 4 });
  const run = await conductOn(sim, { pauseMs: 60_000 });
  t.after(() => run.close());
  run.conductor.follow();
  run.conductor.input({ kind: 'start' });
  await nextEvent(run, (e) => e.event === 'paused');
  sim.model.failNode(2);
  const halted = await nextEvent(run, (e) => e.event === 'halted');
  assert.ok(halted.event === 'halted' && halted.code === 'unsafe' && /node 2 is NO_CONTACT during the pause/.test(halted.reason), JSON.stringify(halted));
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(witness.stopCount(3) + witness.stopCount(5), 0, 'step 2 was never sent');
  assert.equal(run.conductor.machine.phase.kind, 'halted');
});

test('a partner fails mid-step: the plan halts naming it, nothing more is restarted', async (t) => {
  const { sim, witness } = await withSim(t, { dataNodes: 4 });
  const run = await conductOn(sim);
  t.after(() => run.close());
  const restarting = leftStarted(sim, 2);
  run.conductor.follow();
  run.conductor.input({ kind: 'start' });
  await restarting;
  sim.model.failNode(3);
  const halted = await nextEvent(run, (e) => e.event === 'halted');
  assert.ok(halted.event === 'halted' && /node 3 is NO_CONTACT while its partner node 2 restarts: node group 0 has no live node/.test(halted.reason), JSON.stringify(halted));
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(witness.stopCount(2), 1);
  assert.equal(witness.stopCount(4), 1);
  assert.equal(witness.stopCount(3) + witness.stopCount(5), 0, 'step 2 was never sent');
});

test('a restart that never completes halts at the step deadline with where the node is', async (t) => {
  const { sim } = await withSim(t, { dataNodes: 4 });
  sim.model.stalledStarts.set(4, 3);
  const run = await conductOn(sim, { limits: { stepMs: 3000 } });
  t.after(() => run.close());
  run.conductor.follow();
  run.conductor.input({ kind: 'start' });
  const halted = await nextEvent(run, (e) => e.event === 'halted');
  assert.ok(halted.event === 'halted' && halted.code === 'timeout' && /node 4 STARTING \(phase 3\)/.test(halted.reason), JSON.stringify(halted));
});

test('no reply to a restart ever comes: each step completes from the status, and its request is given up then, not held to its deadline', async (t) => {
  const { sim, witness } = await withSim(t, { dataNodes: 4 });
  sim.model.withheldReplies.add('restart node v2');
  // A step deadline far beyond the test: only the conductor giving the requests up ends them in time.
  const run = await conductOn(sim, { limits: { stepMs: 600_000 } });
  t.after(() => run.close());
  run.conductor.follow();
  run.conductor.input({ kind: 'start' });
  const final = await run.conductor.settled();
  assert.equal(final.phase.kind, 'done', JSON.stringify(final.phase));
  const held = new Promise<'held'>((resolve) => setTimeout(() => resolve('held'), 10_000).unref());
  const outcomes = await Promise.race([Promise.all(run.restarts), held]);
  assert.deepEqual(outcomes, [1, 2].map(() => ({ kind: 'lost', error: 'no reply, given up: the step is over without it' })));
  assert.equal(run.events.filter((e) => e.event === 'note' && /^no reply to the restart came/.test(e.text)).length, 2);
  for (const id of [2, 3, 4, 5]) assert.equal(witness.stopCount(id), 1, `node ${id} restarted once`);
});

test('a refused restart halts with the server text; resumed, the step is sent again and the plan completes', async (t) => {
  const { sim, witness } = await withSim(t, { dataNodes: 4 });
  const run = await conductOn(sim);
  t.after(() => run.close());
  // Node 3 fails between our check and the server's: the server refuses to take node group 0 down.
  sim.model.onNextRestart(() => sim.model.failNode(3, { autoRestart: true, downMs: 2000 }));
  run.conductor.follow();
  run.conductor.input({ kind: 'start' });
  const halted = await nextEvent(run, (e) => e.event === 'halted');
  assert.ok(halted.event === 'halted' && halted.code === 'refused', JSON.stringify(halted));
  assert.match(halted.event === 'halted' ? halted.reason : '', /5028-Node shutdown would cause system crash: Permanent error: Application error/);
  assert.equal(witness.stopCount(2) + witness.stopCount(4), 0, 'the refused restart stopped nothing');
  await new Promise<void>((resolve) => {
    const check = (): void => void (sim.model.dataNode(3).status === 'STARTED' ? resolve() : setTimeout(check, 50));
    check();
  });
  run.conductor.input({ kind: 'resume' });
  const final = await run.conductor.settled();
  assert.equal(final.phase.kind, 'done', JSON.stringify(final.phase));
  for (const id of [2, 3, 4, 5]) assert.equal(witness.stopCount(id), 1, `node ${id} restarted once`);
});

test('the management server fails over mid-step: the restart is never sent again; the stranded node halts the plan until started', async (t) => {
  const { sim, witness } = await withSim(t, { dataNodes: 4, mgmNodes: 2 });
  const run = await conductOn(sim, { limits: { notStartedMs: 1500 } });
  t.after(() => run.close());
  const restarting = leftStarted(sim, 3);
  run.conductor.follow();
  run.conductor.input({ kind: 'start' });
  const sent = await nextEvent(run, (e) => e.event === 'restarting');
  // The restart is running on the first management server (the connectstring's first): it goes away mid-step.
  await restarting;
  await sim.stopMgmd(sim.mgmds[0]?.nodeId ?? 1);
  const halted = await nextEvent(run, (e) => e.event === 'halted');
  assert.ok(halted.event === 'halted' && /waited in NOT_STARTED .* without a start order/.test(halted.reason), JSON.stringify(halted));
  const nodes = sent.event === 'restarting' ? sent.nodes : [];
  for (const id of nodes) assert.equal(witness.stopCount(id), 1);
  // The operator starts them by hand (the reason says how) and resumes: the step completes, nothing is resent.
  for (const id of nodes) sim.model.startNode(id);
  run.conductor.input({ kind: 'resume' });
  const final = await run.conductor.settled();
  assert.equal(final.phase.kind, 'done', JSON.stringify(final.phase));
  for (const id of sim.model.data.keys()) assert.equal(witness.stopCount(id), 1, `node ${id} restarted once`);
  assert.deepEqual(witness.groupsWithoutLiveNode, []);
});
