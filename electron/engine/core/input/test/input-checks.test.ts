import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createEngine } from '../../../create-engine.js';
import { PushWatcher, waitFor } from '../../../test/helpers.js';

test('single user mode is offered only for an API or SQL node: a data node id is impossible in the preview, not "do it anyway"', async () => {
  const engine = await createEngine({ host: 'serve', actionsEnabled: true, simulator: { scenario: 'idle', dataNodes: 2, apiNodes: 4 }, pollIntervalMs: 200 });
  try {
    await waitFor('nodes', async () => (await engine.handlers.getSnapshot({})).nodes.length > 0);
    const { nodes } = await engine.handlers.getSnapshot({});
    const data = nodes.find((n) => n.type === 'NDB')?.nodeId ?? 0;
    const api = nodes.find((n) => n.type === 'API')?.nodeId ?? 0;
    const onData = await engine.handlers.previewAction({ action: { kind: 'enterSingleUser', apiNodeId: data } });
    assert.equal(onData.possible, false);
    assert.ok(onData.warnings.some((w) => w.includes(`node ${data} is a data node`)), onData.warnings.join('; '));
    const missing = await engine.handlers.previewAction({ action: { kind: 'enterSingleUser', apiNodeId: 250 } });
    assert.equal(missing.possible, false);
    const onApi = await engine.handlers.previewAction({ action: { kind: 'enterSingleUser', apiNodeId: api } });
    assert.equal(onApi.possible, true);
    // Done for real, the cluster's SingleUser events (whose field named `type` follows the header's) reach the log.
    assert.equal((await engine.handlers.runAction({ action: { kind: 'enterSingleUser', apiNodeId: api } })).ok, true);
    await waitFor('SingleUser events in the log', async () => {
      const texts = (await engine.handlers.getEvents({ limit: 200 })).filter((e) => e.name === 'SingleUser').map((e) => e.text);
      return texts.some((t) => t.endsWith(`: entered single user mode (API node ${api})`)) ? texts : null;
    });
  } finally {
    await engine.close();
  }
});

test('a profile or a cluster with an invalid connect string is refused with the parser’s message; nothing is kept', async () => {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', dataNodes: 2 } });
  try {
    await assert.rejects(engine.handlers.saveProfile({ id: 'x', name: 'bad', connectstring: 'not a host::::' }), (err: Error & { code?: string }) => {
      assert.equal(err.code, 'INVALID');
      assert.match(err.message, /invalid connect string: .*port "a host::::" is not a number/);
      return true;
    });
    assert.deepEqual(await engine.handlers.listProfiles({}), []);
    await assert.rejects(engine.handlers.addCluster({ name: 'bad', connectstring: 'db1:0' }), /port 0 cannot be used/);
    assert.equal((await engine.handlers.listClusters({})).length, 1);
    assert.equal((await engine.handlers.saveProfile({ id: 'y', name: 'good', connectstring: 'db1:1186,db2' })).length, 1);
  } finally {
    await engine.close();
  }
});

test('the cluster list carries each cluster’s worst open alert, pushed when it changes', async () => {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'steady', dataNodes: 2, speed: 4 }, pollIntervalMs: 200 });
  const watch = new PushWatcher(engine);
  try {
    const sim = engine.simulator;
    assert.ok(sim);
    const lists = () => watch.messages.flatMap((m) => (m.type === 'clusters' ? [m.clusters] : []));
    // A data node seen STARTED first: only a node that leaves STARTED raises the alert.
    const victim = await waitFor('a data node STARTED', async () => (await engine.handlers.getSnapshot({})).nodes.find((n) => n.type === 'NDB' && n.status === 'STARTED')?.nodeId);
    assert.equal((await engine.handlers.listClusters({}))[0]?.worstAlert, null);
    sim.model.failNode(victim);
    await waitFor('a pushed list with a critical alert', () => lists().some((l) => l[0]?.worstAlert === 'critical'));
  } finally {
    watch.unsubscribe();
    await engine.close();
  }
});
