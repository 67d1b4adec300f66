import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createEngine } from '../../../create-engine.js';
import { PushWatcher, waitFor } from '../../../test/helpers.js';

test('rolling restart: phases in order with durations, node group DEGRADED then OK, partner not safe to stop, estimate from the first restart', async () => {
  // Node 2's restart begins after the scenario's first 3 s pause: at speed 4 (0.75 s) a loaded CI machine had not yet
  // subscribed to the event stream, and its start phases were missed; at speed 2 (1.5 s) a later one had not yet
  // polled when node 2 was shutting down. At speed 1 the engine has the whole 3 s.
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'rolling-restart', dataNodes: 2, speed: 1 } });
  const watch = new PushWatcher(engine);
  try {
    // Node 2 restarts first, then node 3: wait until node 3 is restarting, so node 2's restart is complete.
    await waitFor('node 3 in its start phases', () => watch.node(3)?.restart?.phase, 60_000);

    const seen2 = watch.states.map((s) => s.nodes.find((n) => n.nodeId === 2)).filter((n) => n !== undefined);
    const restarts = seen2.map((n) => n.restart).filter((r) => r !== null);
    const last = restarts.at(-1);
    assert.ok(last, 'node 2 restart progress was pushed');
    const completed = last.phases.filter((p) => p.durationMs !== null);
    const numbers = completed.map((p) => p.phase);
    assert.deepEqual(numbers, [...numbers].sort((a, b) => a - b), 'phases complete in increasing order');
    assert.ok(numbers.length >= 5, `several phases recorded: ${numbers.join(',')}`);
    for (const [i, p] of completed.entries()) {
      assert.ok((p.durationMs ?? -1) >= 0);
      if (i > 0) assert.equal(p.startedAt, (completed[i - 1]?.startedAt ?? 0) + (completed[i - 1]?.durationMs ?? 0), 'a phase begins when the previous one completed');
    }
    assert.equal(last.startType, 2, 'node restart');
    assert.equal(seen2.at(-1)?.status, 'STARTED');

    const health = watch.states.map((s) => s.nodeGroups[0]?.health);
    const degradedAt = health.indexOf('DEGRADED');
    assert.ok(degradedAt >= 0, 'node group 0 went DEGRADED');
    assert.ok(health.slice(degradedAt).includes('OK'), 'and back to OK');

    const partnerWhileDown = watch.states.filter((s) => { const st = s.nodes.find((n) => n.nodeId === 2)?.status; return st !== undefined && st !== 'STARTED'; }).map((s) => s.nodes.find((n) => n.nodeId === 3));
    assert.ok(partnerWhileDown.length > 0);
    for (const n of partnerWhileDown) assert.equal(n?.safeToStop, false, 'node 3 is not safe to stop while node 2 is down');
    assert.equal(watch.node(2)?.safeToStop, false, 'now node 2 is the one that must stay');

    const estimate = await waitFor('a time-left estimate for node 3', () => {
      const left = watch.node(3)?.restart?.estimatedMsLeft;
      return typeof left === 'number' ? { left } : null;
    });
    assert.ok(estimate.left >= 0);

    const timeline = await engine.handlers.getTimeline({});
    const statuses = timeline.nodes.find((n) => n.nodeId === 2)?.segments.map((s) => s.status) ?? [];
    for (const s of ['SHUTTING_DOWN', 'NO_CONTACT', 'STARTING', 'STARTED']) assert.ok(statuses.includes(s as never), `timeline of node 2 has ${s}: ${statuses.join(' ')}`);

    const events = await engine.handlers.getEvents({ limit: 10_000 });
    assert.ok(events.some((e) => e.text === 'Node 2: start phase 4 completed (node restart)'));
    assert.deepEqual(events.map((e) => e.seq), [...events.map((e) => e.seq)].sort((a, b) => a - b));
  } finally {
    watch.unsubscribe();
    await engine.close();
  }
});
