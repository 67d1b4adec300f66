import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createEngine } from '../../create-engine.js';
import { PushWatcher, waitFor } from '../../test/helpers.js';

const MEMORY_USAGE = 50;
const DATA_BLOCK = 249;

test('a threshold event asks for a memory round at once, not at the next refresh', { timeout: 60_000 }, async () => {
  // Refresh once at connect and then not for ten minutes: only a round the crossing asked for can change figures.
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', dataNodes: 4, speed: 4 }, memoryRefreshMs: 600_000 });
  const sim = engine.simulator;
  assert.ok(sim);
  const watch = new PushWatcher(engine);
  try {
    const before = await waitFor('memory known for data node 2', () => watch.node(2)?.memory.data?.percent);
    // A crossing to 95 % from node 2 (gth +1) that the simulator's own pages do not back: the round after it says
    // what the node holds, as a real node's `dump events 50` would.
    sim.model.emit({ type: MEMORY_USAGE, source: 2, body: [1, 32768, 62_000, 65_536, DATA_BLOCK] });
    await waitFor('the crossing applied', () => watch.states.some((s) => Math.round(s.nodes.find((n) => n.nodeId === 2)?.memory.data?.percent ?? 0) === 95));
    await waitFor('the round after it', () => watch.node(2)?.memory.data?.percent === before, 10_000);
  } finally {
    watch.unsubscribe();
    await engine.close();
  }
});
