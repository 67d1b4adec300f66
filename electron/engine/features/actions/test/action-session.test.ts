import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createEngine } from '../../../create-engine.js';
import { PushWatcher, waitFor } from '../../../test/helpers.js';

test('a restart started from ndbtop does not freeze the status poll while the server works on it', async () => {
  // speed 2: the simulated restart takes several real seconds, during which the 150 ms poll must keep going.
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', dataNodes: 4, speed: 2 }, pollIntervalMs: 150, actionsEnabled: true });
  const watch = new PushWatcher(engine);
  try {
    await waitFor('node 3 STARTED', () => watch.node(3)?.status === 'STARTED');
    let done = false;
    const samples = new Set<number>();
    const action = engine.handlers.runAction({ action: { kind: 'restart', nodeId: 3, initial: false, noStart: false, abort: false } }).finally(() => (done = true));
    while (!done) {
      const at = (await engine.handlers.getSnapshot({})).sampledAt;
      if (at !== null) samples.add(at);
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual(await action, { ok: true, message: 'node 3 restarted' });
    assert.ok(samples.size >= 5, `only ${samples.size} status samples while the restart ran: the poll waited behind it`);
    await waitFor('the restart watched live: node 3 seen STARTING', () => watch.states.some((s) => s.nodes.some((n) => n.nodeId === 3 && n.status === 'STARTING')));
  } finally {
    watch.unsubscribe();
    await engine.close();
  }
});
