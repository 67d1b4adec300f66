import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createEngine } from '../../../create-engine.js';
import { alertsPushed, nodesRestarted, waitFor } from '../../../test/helpers.js';

const DATA_NODES = 48;

test('a rolling restart of 48 data nodes under load, one full round, raises no alert', async () => {
  const engine = await createEngine({ host: 'serve', pollIntervalMs: 250, simulator: { scenario: 'rolling-restart', dataNodes: DATA_NODES, speed: 32, sql: false } });
  const raised = alertsPushed(engine);
  try {
    // A round is done once every data node was seen out and is STARTED again; it stops there.
    await waitFor('every data node restarted once', async () => (await nodesRestarted(engine)) >= DATA_NODES, 240_000);
    assert.deepEqual(raised.alerts.map((a) => a.message), []);
    assert.deepEqual((await engine.handlers.getAlertHistory({})).entries.map((e) => e.message), [], 'nothing silenced either');
  } finally {
    raised.stop();
    await engine.close();
  }
});
