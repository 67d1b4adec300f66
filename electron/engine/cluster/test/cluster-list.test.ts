import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createEngine } from '../../create-engine.js';
import { PushWatcher, waitFor } from '../../test/helpers.js';

test('the cluster list is pushed again when a cluster changes state, so pickers never show a stale status', async () => {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', dataNodes: 2 }, pollIntervalMs: 200 });
  const watch = new PushWatcher(engine);
  try {
    const sim = engine.simulator;
    assert.ok(sim);
    const lists = () => watch.messages.flatMap((m) => (m.type === 'clusters' ? [m.clusters] : []));
    await waitFor('a pushed list saying live', () => lists().some((l) => l[0]?.status === 'live'));
    await sim.stopMgmd(sim.mgmds[0]?.nodeId ?? 1);
    await waitFor('a pushed list saying the cluster lost its server', () => lists().some((l) => l[0]?.status === 'reconnecting' || l[0]?.status === 'offline'));
  } finally {
    watch.unsubscribe();
    await engine.close();
  }
});
