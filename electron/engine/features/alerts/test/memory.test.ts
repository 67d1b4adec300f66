import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BENCHMARK_RATES, steadyProfile } from '../../../../../native-mgm/sim/index.js';
import { createEngine } from '../../../create-engine.js';
import { PushWatcher, waitFor } from '../../../test/helpers.js';

const MEMORY_USAGE = 50;
const DATA_BLOCK = 249;

test('memory: over 80 % is a warning, over 90 % critical, both resolve when usage falls well below', async () => {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', dataNodes: 2, speed: 20 }, memoryRefreshMs: 300, memoryAlertHoldMs: 500 });
  const sim = engine.simulator;
  assert.ok(sim);
  const watch = new PushWatcher(engine);
  const dataAlert = (kind: string, nodeId: number) => watch.current?.alerts.find((a) => a.kind === kind && a.nodeId === nodeId && a.message.includes('data memory'));
  try {
    await waitFor('memory known for node 3', () => watch.node(3)?.memory.data);
    assert.ok((watch.node(3)?.memory.data?.percent ?? 100) < 80);

    // 95 % of the benchmark load drives data memory towards ~87 %.
    const scale = 0.95;
    sim.model.setLoad(steadyProfile({ ...BENCHMARK_RATES, readsPerSec: BENCHMARK_RATES.readsPerSec * scale, writesPerSec: BENCHMARK_RATES.writesPerSec * scale }));
    const high = await waitFor('memory-high alert for node 3', () => dataAlert('memory-high', 3));
    assert.equal(high.severity, 'warning');
    assert.ok((watch.node(3)?.memory.data?.percent ?? 0) >= 80);

    // A threshold report above 90 % from the node itself (as CMVMI sends it: gth +1).
    sim.model.emit({ type: MEMORY_USAGE, source: 3, body: [1, 32768, 62_000, 65_536, DATA_BLOCK] });
    const critical = await waitFor('memory-critical alert for node 3', () => dataAlert('memory-critical', 3));
    assert.equal(critical.severity, 'critical');
    assert.ok(dataAlert('memory-high', 3)?.resolvedAt, 'the warning gives way to the critical alert');

    // The next `dump events 50` reports give the real ~87 % again: above the 85 % clear mark, so still critical.
    await waitFor('the next memory report', () => (watch.node(3)?.memory.data?.percent ?? 100) < 90);
    // Three more refreshes (300 ms apart) of the real figures, past the 500 ms clear hold.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.ok((watch.node(3)?.memory.data?.percent ?? 100) < 90);
    assert.equal(dataAlert('memory-critical', 3)?.resolvedAt, null, 'hysteresis: 87 % does not end a 90 % alert');
    await waitFor('history holds the high usage', async () => {
      const h = await engine.handlers.getHistory({ metrics: ['dataMemory'], nodeIds: [3] });
      return h.series[1]?.values.some((v) => v !== null && v >= 80);
    });
    // Memory comes back only as rows are deleted: the load stops and its table is dropped, as a benchmark ends.
    sim.model.setLoad('idle');
    sim.model.memory.dropTable();
    await waitFor('all memory alerts over', () => watch.current?.alerts.filter((a) => a.kind.startsWith('memory')).every((a) => a.resolvedAt !== null));
  } finally {
    watch.unsubscribe();
    await engine.close();
  }
});
