import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createEngine } from '../../../create-engine.js';
import { waitFor } from '../../../test/helpers.js';

test('benchmark scenario: memory alerts are raised once per crossing, not several times a second', { timeout: 120_000 }, async () => {
  // Two full benchmark runs (warmup, 60 s at the peak, cooldown, pause) in sim time.
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'benchmark', dataNodes: 4, speed: 20 }, memoryRefreshMs: 250, memoryAlertHoldMs: 1000 });
  const raised: Array<{ kind: string; nodeId: number | null; at: number }> = [];
  const unsubscribe = engine.subscribe((m) => {
    if (m.type === 'alert' && m.alert.kind.startsWith('memory')) raised.push({ kind: m.alert.kind, nodeId: m.alert.nodeId, at: Date.now() });
  });
  const sim = engine.simulator;
  assert.ok(sim);
  try {
    // Two runs the engine watched: counted from its first memory figures of every node (on a loaded machine they
    // came ~10 s of wall time after the start, 200 s of this simulator's, and the alerts of runs it never saw are none).
    await waitFor('memory figures of every data node', async () => (await engine.handlers.getSnapshot({})).nodes.filter((n) => n.type === 'NDB' && n.memory.data !== null).length === 4, 60_000);
    const start = sim.model.clock.now();
    await waitFor('two benchmark runs', () => sim.model.clock.now() - start > 2 * 110_000, 100_000);
    assert.ok(raised.length > 0, 'the benchmark drives memory past 80 %');
    const perNodeKind = new Map<string, number>();
    for (const r of raised) perNodeKind.set(`${r.kind}:${r.nodeId}`, (perNodeKind.get(`${r.kind}:${r.nodeId}`) ?? 0) + 1);
    // At most one raise per run for each node and level.
    for (const [key, n] of perNodeKind) assert.ok(n <= 2, `${key} raised ${n} times in two runs`);
  } finally {
    unsubscribe();
    await engine.close();
  }
});
