import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ClusterTracker } from '../cluster-tracker.js';
import type { ConnectionInput } from '../tracker-input.js';

function connection(status: ConnectionInput['status'], lastError: string | null, events: ConnectionInput['eventStream']['status'] = 'live'): ConnectionInput {
  const live = status === 'live' || status === 'stale' || status === 'refused';
  return { status, connectstring: 'a:1186,b:1186', mgmd: live ? { host: 'a', port: 1186, nodeId: 3, since: 0 } : null, serverVersion: '9.3.0', failovers: 0, lastError, retryAt: null, eventStream: { status: events } };
}

function tracker(): ClusterTracker {
  return new ClusterTracker('c1', 'test', { connectstring: 'a:1186,b:1186', mode: 'live', historySeconds: 600 }, { changed: () => undefined, events: () => undefined, alert: () => undefined, history: () => undefined });
}

/**
 * Issue 23 item 12: while reconnecting, the last error changed with each retry and with the event stream's own, and
 * the header cycled between them. The view holds one reason for the outage, from when it stopped being live.
 */
test('the reason the cluster is not live holds through retries and event-stream errors, with when it began', () => {
  const t = tracker();
  t.apply({ kind: 'connection', t: 1000, connection: connection('live', null) });
  assert.equal(t.snapshot().connection.trouble, null);
  t.apply({ kind: 'connection', t: 5000, connection: connection('reconnecting', null, 'reconnecting') });
  assert.equal(t.snapshot().connection.trouble, null, 'no reason known yet');
  t.apply({ kind: 'connection', t: 5200, connection: connection('reconnecting', 'no management server reachable: a:1186 (ECONNREFUSED), b:1186 (ECONNREFUSED)', 'reconnecting') });
  const held = { reason: 'no management server reachable: a:1186 (ECONNREFUSED), b:1186 (ECONNREFUSED)', since: 5000 };
  assert.deepEqual(t.snapshot().connection.trouble, held, 'since the cluster stopped being live');
  t.apply({ kind: 'connection', t: 6000, connection: connection('reconnecting', 'event stream: connect ECONNREFUSED 127.0.0.1:1186', 'reconnecting') });
  t.apply({ kind: 'connection', t: 7000, connection: connection('reconnecting', 'no management server reachable: a:1186 (ETIMEDOUT), b:1186 (ECONNREFUSED)', 'reconnecting') });
  assert.deepEqual(t.snapshot().connection.trouble, held, 'the next retry and the event stream do not replace it');
  t.apply({ kind: 'connection', t: 8000, connection: connection('refused', 'get status: this server requires TLS', 'reconnecting') });
  assert.deepEqual(t.snapshot().connection.trouble, { reason: 'get status: this server requires TLS', since: 5000 }, 'a new status brings its own reason; the outage began when it did');
  t.apply({ kind: 'connection', t: 9000, connection: connection('live', 'get status: this server requires TLS') });
  assert.equal(t.snapshot().connection.trouble, null, 'live again: no reason');
});
