import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterSnapshot } from '../../../../contract/schemas/snapshot.js';
import { createEngine } from '../../../create-engine.js';
import { waitFor } from '../../../test/helpers.js';
import { hostedIdleCluster } from '../../../test/hosted-cluster.js';

/** Fast enough that 48 restarts one at a time take about a minute; slow enough that 200 ms polls see each. */
const SPEED = 10;
const POLL_MS = 200;

/** The first ETA shown and when the work really ended (the simulator's model is the truth), said if it fails. */
function assertHolds(first: { from: number; to: number; basis: number }, finish: number): void {
  // The engine sees a node back at its next poll: the finish it could know is up to one poll after the model's.
  const shown = `first ETA ${new Date(first.from).toISOString()} to ${new Date(first.to).toISOString()} (from ${first.basis}); real finish ${new Date(finish).toISOString()}`;
  assert.ok(first.from <= finish + POLL_MS && finish <= first.to + POLL_MS, shown);
  process.stderr.write(`${shown}\n`);
}

test('48 data nodes restarted one at a time by the rolling-restart scenario: the first ETA range holds the real finish', async (t) => {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'rolling-restart', dataNodes: 48, speed: SPEED, sql: false }, pollIntervalMs: POLL_MS });
  t.after(() => engine.close());
  const sim = engine.simulator;
  assert.ok(sim);
  const last = [...sim.model.data.keys()].at(-1);
  let down = false;
  let finish: number | null = null;
  const off = sim.model.onStatusChange((n) => {
    if (n.id !== last || finish !== null) return;
    if (n.status !== 'STARTED') down = true;
    else if (down) finish = Date.now();
  });
  t.after(off);
  const seen: { first: { from: number; to: number; basis: number } | null } = { first: null };
  await waitFor(
    'the last node of the first round back',
    async () => {
      const r = ((await engine.handlers.getSnapshot({})) as ClusterSnapshot).rollingRestart;
      if (!seen.first && finish === null && r?.etaRange) seen.first = { ...r.etaRange, basis: r.etaBasis };
      return finish !== null;
    },
    240_000,
  );
  const first = seen.first;
  assert.ok(first, 'an ETA was shown before the round ended');
  assert.ok(first.from < first.to, 'the first figure is a range');
  assertHolds(first, finish ?? 0);
});

test('a hosted rolling restart of 48 data nodes: the first plan ETA range holds the real finish, and it says how many steps it rests on', async (t) => {
  const engine = await hostedIdleCluster(t, 48, SPEED, POLL_MS);
  const planned = await waitFor('a plan (the configuration read)', () => engine.handlers.planRollingRestart({ order: 'node-id', nodes: [2, 3, 4, 5, 6, 7], pauseMs: 0, checks: { allowUnchecked: true } }).catch(() => null), 30_000);
  assert.deepEqual({ finishAt: planned.eta.finishAt, basis: planned.eta.basis }, { finishAt: null, basis: 0 }, 'nothing timed: no figure');
  await engine.handlers.startRollingRestart({ planId: planned.planId });
  const seen: { first: { from: number; to: number; basis: number } | null } = { first: null };
  const done = await waitFor(
    'the plan done',
    async () => {
      const v = await engine.handlers.getRollingRestart({});
      if (!seen.first && v?.eta.finishRange && v.state !== 'done') seen.first = { ...v.eta.finishRange, basis: v.eta.basis };
      return v?.state === 'done' ? Date.now() : null;
    },
    240_000,
  );
  const first = seen.first;
  assert.ok(first, 'an ETA was shown before the plan was done');
  assert.equal(first.basis, 1, 'the first figure rests on the first step');
  assert.ok(first.from < first.to, 'the first figure is a range');
  assertHolds(first, done);
});
