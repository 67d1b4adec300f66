import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createEngine } from '../create-engine.js';
import { PushWatcher, waitFor } from './helpers.js';

// Issue 12 ("seen while trying"): after a failover to mgmd 2 the "Lost the event stream" warning stayed active
// while events arrived again. The stream must be back on the surviving server and the warning resolved.
test('after mgmd 1 stops, the event stream is live on mgmd 2 and its lost-stream alert is resolved', { timeout: 120_000 }, async () => {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'steady', mgmNodes: 2, dataNodes: 2, speed: 5 }, requestTimeoutMs: 1000 });
  const sim = engine.simulator;
  assert.ok(sim);
  const watch = new PushWatcher(engine);
  try {
    await waitFor('live, events live', () => watch.current?.connection.status === 'live' && watch.current.connection.eventStream.status === 'live');
    await sim.stopMgmd(1);
    await waitFor('failed over', () => watch.current?.connection.status === 'failed-over');
    const openStreamAlert = () => watch.current?.alerts.some((a) => a.kind === 'event-stream-lost' && a.resolvedAt === null) ?? true;
    await waitFor('event stream live again, no open lost-stream alert', () => watch.current?.connection.eventStream.status === 'live' && !openStreamAlert(), 10_000);
    const at = Date.now();
    // Statistics reports arrive only on the event stream; fresh rates mean events flow again.
    await waitFor('statistics events arriving from mgmd 2', () => (watch.current?.rates?.at ?? 0) >= at, 20_000);
    assert.equal(openStreamAlert(), false);
  } finally {
    watch.unsubscribe();
    await engine.close();
  }
});
