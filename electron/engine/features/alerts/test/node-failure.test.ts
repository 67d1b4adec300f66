import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createEngine } from '../../../create-engine.js';
import { MgmClient } from '../../../../../native-mgm/client/mgm-client.js';
import { PushWatcher, waitFor } from '../../../test/helpers.js';

test('node failure: the alert comes from the event, not the next poll; requested stops are not alerts; 5028 shown as the server says it', async () => {
  // A poll interval far longer than the test: anything seen after the first poll came by the event path.
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', dataNodes: 4 }, pollIntervalMs: 60_000, actionsEnabled: true });
  const sim = engine.simulator;
  assert.ok(sim);
  const watch = new PushWatcher(engine);
  try {
    await waitFor('all four data nodes STARTED and the event stream live', () => {
      const c = watch.current;
      return c?.connection.eventStream.status === 'live' && c.nodes.filter((n) => n.type === 'NDB' && n.status === 'STARTED').length === 4;
    });
    const sampledBefore = watch.current?.sampledAt ?? 0;

    sim.model.failNode(3, { autoRestart: false });
    const alert = await waitFor('node-down alert push', () =>
      watch.messages.find((m) => m.type === 'alert' && m.alert.kind === 'node-down' && m.alert.nodeId === 3),
    );
    assert.equal(alert.type === 'alert' && alert.alert.severity, 'critical');
    await waitFor('node 3 NO_CONTACT and group 0 DEGRADED', () => watch.node(3)?.status === 'NO_CONTACT' && watch.current?.nodeGroups[0]?.health === 'DEGRADED');
    await waitFor('an event-triggered get status', () => (watch.current?.sampledAt ?? 0) > sampledBefore);
    assert.ok(watch.current?.alerts.some((a) => a.kind === 'node-group-degraded' && a.resolvedAt === null));
    assert.equal(watch.node(2)?.safeToStop, false);

    const preview = await engine.handlers.previewAction({ action: { kind: 'stop', nodeId: 2, abort: false } });
    assert.equal(preview.safe, false);
    assert.ok(preview.possible);
    assert.ok(preview.warnings.includes('node group 0 will have no live node: the cluster will shut down'), preview.warnings.join('; '));
    assert.ok(preview.warnings.some((w) => w.includes('node 2 is the last live node of node group 0') && w.includes('5028')), preview.warnings.join('; '));
    const gone = await engine.handlers.previewAction({ action: { kind: 'stop', nodeId: 3, abort: false } });
    assert.equal(gone.possible, false, 'a node out of contact cannot be stopped');

    const refused = await engine.handlers.runAction({ action: { kind: 'stop', nodeId: 2, abort: false } });
    assert.equal(refused.ok, false);
    // `stop` replies without the number, `restart` with it (spec §1.4): either way the text is passed on untouched.
    assert.equal(refused.message, 'Node shutdown would cause system crash: Permanent error: Application error');
    const refusedRestart = await engine.handlers.runAction({ action: { kind: 'restart', nodeId: 2, initial: false, noStart: false, abort: false } });
    assert.deepEqual(refusedRestart, { ok: false, message: '5028-Node shutdown would cause system crash: Permanent error: Application error' });

    const stopped = await engine.handlers.runAction({ action: { kind: 'stop', nodeId: 4, abort: false } });
    assert.deepEqual(stopped, { ok: true, message: 'node 4 stopped' });
    await waitFor('node 4 NO_CONTACT', () => watch.node(4)?.status === 'NO_CONTACT');
    assert.ok(!watch.messages.some((m) => m.type === 'alert' && m.alert.kind === 'node-down' && m.alert.nodeId === 4), 'a requested stop raises no node-down alert');

    const ack = await engine.handlers.acknowledgeAlert({ alertId: alert.type === 'alert' ? alert.alert.id : '' });
    assert.deepEqual(ack, { acknowledged: true });
    await waitFor('acknowledged in the snapshot', () => watch.current?.alerts.find((a) => a.kind === 'node-down')?.acknowledged);
  } finally {
    watch.unsubscribe();
    await engine.close();
  }
});

test('a graceful restart ordered by another client (ndb_mgm) is not a failure: no node-down alert', async () => {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', dataNodes: 4, speed: 10 }, pollIntervalMs: 500 });
  const sim = engine.simulator;
  assert.ok(sim);
  const watch = new PushWatcher(engine);
  const other = new MgmClient({ connectstring: sim.connectstring });
  try {
    await waitFor('node 3 STARTED', () => watch.node(3)?.status === 'STARTED' && watch.current?.connection.eventStream.status === 'live');
    await other.restart([3]);
    await waitFor('node 3 back to STARTED after its restart', () => watch.node(3)?.status === 'STARTED' && (watch.node(3)?.connectCount ?? 0) >= 2);
    assert.ok(watch.messages.some((m) => m.type === 'delta' && m.delta.nodes?.some((n) => n.nodeId === 3 && n.status !== 'STARTED')), 'the restart was seen');
    assert.ok(!watch.messages.some((m) => m.type === 'alert' && m.alert.kind === 'node-down'), 'no node-down alert for an ordered restart');
  } finally {
    other.close();
    watch.unsubscribe();
    await engine.close();
  }
});
