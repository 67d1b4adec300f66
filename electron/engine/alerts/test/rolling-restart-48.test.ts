import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Alert } from '../../../contract/schemas/events.js';
import { createEngine } from '../../create-engine.js';
import { waitFor } from '../../test/helpers.js';

const DATA_NODES = 48;

test('a rolling restart of 48 data nodes under load, one full round, raises no alert', async () => {
  const engine = await createEngine({ host: 'serve', pollIntervalMs: 250, simulator: { scenario: 'rolling-restart', dataNodes: DATA_NODES, speed: 32, sql: false } });
  const raised: Alert[] = [];
  const unsubscribe = engine.subscribe((m) => {
    if (m.type === 'alert') raised.push(m.alert);
  });
  try {
    // A round is done once every data node was seen out and is STARTED again; it stops there.
    await waitFor(
      'every data node restarted once',
      async () => {
        const { nodes } = await engine.handlers.getTimeline({});
        return nodes.filter((n) => n.segments.some((s) => s.status !== 'STARTED') && n.segments.at(-1)?.status === 'STARTED').length >= DATA_NODES;
      },
      240_000,
    );
    assert.deepEqual(raised.map((a) => a.message), []);
    assert.deepEqual((await engine.handlers.getAlertHistory({})).entries.map((e) => e.message), [], 'nothing silenced either');
  } finally {
    unsubscribe();
    await engine.close();
  }
});
