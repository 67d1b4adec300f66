import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startSimulator } from '../../../../native-mgm/sim/index.js';
import { createMetricsExporter } from '../../../serve/metrics/exporter.js';
import { createEngine } from '../../create-engine.js';
import { waitFor } from '../../test/helpers.js';

// Issue 40: a management server that answers with words of its own while it starts (the spec gives no text; the
// simulator's `startingReply` plays one) is a server that is there and not ready, not a broken connection.
const WORDS = 'Waiting for arbitrator selection';

test('a management server answering get status with its own sentence shows not-ready with its words, keeps the session, and turns live once it answers', { timeout: 120_000 }, async (t) => {
  const sim = await startSimulator({ dataNodes: 2, version: '8.0.40' });
  t.after(() => sim.close());
  sim.model.startingReply = WORDS;
  const engine = await createEngine({ host: 'serve', simulator: false, clusters: [{ connectstring: sim.connectstring }], pollIntervalMs: 100 });
  t.after(() => engine.close());
  const snapshot = () => engine.handlers.getSnapshot({});

  const waiting = await waitFor('not-ready', async () => {
    const s = await snapshot();
    return s.connection.status === 'not-ready' ? s : null;
  });
  assert.equal(waiting.connection.lastError, `the management server answered "get status" with "${WORDS}" instead of its reply`);
  assert.equal(waiting.connection.serverVersion, 'mysql-8.0.40 ndb-8.0.40');
  assert.ok(waiting.connection.mgmd, 'connected to a management server');
  const since = waiting.connection.mgmd.since;
  // Several polls later: still the one session, never reconnecting, and no alert that the management server was lost.
  await new Promise((r) => setTimeout(r, 800));
  const later = await snapshot();
  assert.equal(later.connection.status, 'not-ready');
  assert.equal(later.connection.mgmd?.since, since);
  assert.equal(later.connection.failovers, 0);
  assert.deepEqual(later.alerts.filter((a) => a.kind === 'mgmd-lost'), []);
  const exporter = createMetricsExporter(engine.handlers);
  const scrape = await exporter.scrape(undefined);
  assert.ok(scrape.ok);
  assert.match(scrape.body, /ndbtop_connection_state\{[^}]*state="not_ready"[^}]*\} 1/);

  sim.model.startingReply = null;
  const live = await waitFor('live with both data nodes', async () => {
    const s = await snapshot();
    return s.connection.status === 'live' && s.nodes.filter((n) => n.type === 'NDB').length === 2 ? s : null;
  });
  assert.equal(live.connection.mgmd?.since, since, 'the session that waited is the one that goes on');
  assert.deepEqual(live.alerts.filter((a) => a.kind === 'mgmd-lost'), []);
  // The event stream, whose `listen event` got the same sentence, follows once the server answers.
  await waitFor('the event stream live', async () => (await snapshot()).connection.eventStream.status === 'live', 30_000);
  // The words stay a few seconds as the last error (as any error does), then go: nothing is left that looks broken.
  await waitFor('no error left', async () => (await snapshot()).connection.lastError === null, 30_000);
});
