import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createEngine } from '../../../create-engine.js';
import type { ConnectionView } from '../../../../contract/schemas/snapshot.js';
import { ENGINE_NOTE_CATEGORY, connectionNotes } from '../engine-notes.js';
import { newestReportAt, PushWatcher, waitFor } from '../../../test/helpers.js';

test('a steady cluster sends no loggable events, yet the log a fresh page asks for shows what ndbtop saw: whom it connected to and the first status', async () => {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'steady', dataNodes: 4, mgmNodes: 2, speed: 5 }, requestTimeoutMs: 1000 });
  const watch = new PushWatcher(engine);
  try {
    // Statistics reports arrived (the engine has been watching), none of them listed.
    await waitFor('statistics received', async () => (await newestReportAt(engine)) > 0);
    // The notes come with the command link and its first status, which may be after the first statistics.
    const events = await waitFor('ndbtop notes', async () => {
      const es = await engine.handlers.getEvents({ limit: 500 });
      return es.some((e) => e.name === 'NdbtopConnected') && es.some((e) => e.name === 'NdbtopFirstStatus') ? es : null;
    });
    const names = events.filter((e) => e.category === ENGINE_NOTE_CATEGORY).map((e) => e.name);
    assert.ok(names.includes('NdbtopConnected'), names.join());
    assert.match(events.find((e) => e.name === 'NdbtopConnected')?.text ?? '', /ndbtop connected to management server 1 at 127\.0\.0\.1:\d+/);
    assert.match(events.find((e) => e.name === 'NdbtopFirstStatus')?.text ?? '', /4 of 4 data nodes started, 2 of 2 management servers/);

    await engine.simulator?.stopMgmd(1);
    const after = await waitFor('failover noted', async () => {
      const es = await engine.handlers.getEvents({ limit: 500 });
      return es.some((e) => /failed over to management server 2/.test(e.text)) ? es : null;
    });
    assert.ok(after.some((e) => e.name === 'NdbtopLostMgmd' && e.severity === 'WARNING'));
    // The same sequence as cluster events, so pages and de-duplication keep working.
    assert.deepEqual(after.map((e) => e.seq), [...after.map((e) => e.seq)].sort((a, b) => a - b));
  } finally {
    watch.unsubscribe();
    await engine.close();
  }
});

test('a management server that stops answering polls is noted as silent, not lost, and as answering again when it does', () => {
  const mgmd = { host: '10.0.0.11', port: 1186, nodeId: 1, since: 0 };
  const view = (status: ConnectionView['status'], lastError: string | null = null): ConnectionView => ({
    mode: 'live', status, connectstring: '10.0.0.11', mgmd, serverVersion: 'mysql-8.4.3 ndb-8.4.3', failovers: 0, lastError, eventStream: { status: 'live' },
  });
  const silent = connectionNotes(view('live'), view('stale', '"get status" unanswered for 1.6 s on 10.0.0.11:1186'), 10, true);
  assert.deepEqual(silent.map((n) => [n.name, n.severity, n.text]), [
    ['NdbtopMgmdSilent', 'WARNING', 'management server 1 at 10.0.0.11:1186 stopped answering ndbtop\'s polls: "get status" unanswered for 1.6 s on 10.0.0.11:1186'],
  ]);
  assert.deepEqual(connectionNotes(view('stale'), view('live'), 20, true).map((n) => [n.name, n.text]), [['NdbtopMgmdAnswers', 'management server 1 at 10.0.0.11:1186 answers ndbtop\'s polls again']]);
  // Still stale: nothing new to say. A stale session that then times out was noted when it went silent.
  assert.deepEqual(connectionNotes(view('stale'), view('stale'), 30, true), []);
  assert.deepEqual(connectionNotes(view('stale'), view('reconnecting', 'timed out'), 40, true), []);
  assert.equal(connectionNotes(view('live'), view('reconnecting', 'closed'), 50, true)[0]?.name, 'NdbtopLostMgmd');
  // The event stream coming back is news only if events came before it went; its first start is not.
  const stream = (status: ConnectionView['eventStream']['status']): ConnectionView => ({ ...view('live'), eventStream: { status } });
  assert.deepEqual(connectionNotes(stream('reconnecting'), stream('live'), 60, true).map((n) => n.name), ['NdbtopEventsBack']);
  assert.deepEqual(connectionNotes(stream('connecting'), stream('live'), 70, false), []);
});
