import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test, type TestContext } from 'node:test';
import WebSocket from 'ws';
import type { RequestName, RequestOf } from '../../contract/schemas/channels.js';
import { createEngine } from '../../engine/create-engine.js';
import { REQUEST_ACCESS } from '../access/viewer-access.js';
import { startServeServer } from '../serve-server.js';
import { makeStaticRoot, waitFor } from './helpers.js';

// Issue 36 (attacks): whatever a viewer sends, over the WebSocket or HTTP, nothing that changes the server or acts on
// the cluster runs without the flag that allows it. The sweep is driven by REQUEST_ACCESS, so a request added later
// is swept too (its sample is demanded below).

/** A request that would work, for each one a viewer may not make: refused for who sends it, never for its shape. */
const SAMPLES: { [K in RequestName]?: RequestOf<K> } = {
  addCluster: { name: 'scan', connectstring: '127.0.0.1:22' },
  removeCluster: { clusterId: 'c-1' },
  acknowledgeAlert: { alertId: 'a-1' },
  updateSettings: { pollIntervalMs: 60_000 },
  saveProfile: { id: 'p', name: 'p', connectstring: 'evil:1186' },
  deleteProfile: { id: 'p' },
  startMaintenance: { reason: 'hush', silenceCritical: true, durationMs: 3_600_000 },
  stopMaintenance: { windowId: 'mw-1' },
  extendMaintenance: { windowId: 'mw-1', durationMs: 3_600_000 },
  runAction: { action: { kind: 'startBackup' } },
  planRollingRestart: {},
  startRollingRestart: { planId: 'p-1' },
  haltRollingRestart: { planId: 'p-1' },
  resumeRollingRestart: { planId: 'p-1' },
  abortRollingRestart: { planId: 'p-1' },
};
/** Every operator action, not only the backup above. */
const ACTIONS: Array<RequestOf<'runAction'>['action']> = [
  { kind: 'stop', nodeId: 2 },
  { kind: 'start', nodeId: 2 },
  { kind: 'restart', nodeId: 2 },
  { kind: 'startBackup' },
  { kind: 'abortBackup', backupId: 1 },
  { kind: 'enterSingleUser', apiNodeId: 50 },
  { kind: 'exitSingleUser' },
];
/** The HTTP routes that change the server or act on the cluster, with a body each would take. */
const POSTS: Array<[string, unknown]> = [
  ['/api/maintenance', { reason: 'hush', silenceCritical: true, durationMs: 3_600_000 }],
  ['/api/maintenance/mw-1/extend', { durationMs: 3_600_000 }],
  ['/api/maintenance/mw-1/stop', {}],
  ['/api/rolling-restart', {}],
  ...['start', 'halt', 'resume', 'abort'].map((a): [string, unknown] => [`/api/rolling-restart/p-1/${a}`, {}]),
];

async function stack(t: TestContext, allowChanges: boolean) {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'idle', dataNodes: 2, speed: 4 }, pollIntervalMs: 300 });
  const dir = await makeStaticRoot();
  const server = await startServeServer({ engine, staticDir: dir.root, port: 0, allowChanges });
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`);
  t.after(async () => {
    ws.terminate();
    await server.close();
    await engine.close();
    await dir.cleanup();
  });
  await once(ws, 'open');
  const answers = new Map<number, { ok: boolean; error?: { code: string; message: string } }>();
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as { type: string; id: number; ok: boolean; error?: { code: string; message: string } };
    if (frame.type === 'ndbtop:response') answers.set(frame.id, frame);
  });
  let next = 0;
  const ask = async (name: string, request: unknown) => {
    const id = ++next;
    ws.send(JSON.stringify({ id, name, request }));
    return waitFor(() => answers.get(id), `the answer to ${name}`);
  };
  return { engine, server, ask, sim: engine.simulator };
}

/** Nothing a refused request would have done happened: in the engine, and in the simulated cluster itself. */
async function untouched(engine: Awaited<ReturnType<typeof createEngine>>): Promise<void> {
  const h = engine.handlers;
  assert.equal((await h.listClusters({})).length, 1, 'no cluster added or removed');
  assert.equal((await h.getSettings({})).pollIntervalMs, 300, 'settings unchanged');
  assert.deepEqual(await h.listProfiles({}), [], 'no profile saved');
  assert.deepEqual(await h.listMaintenance({}), [], 'no alert silenced');
  assert.equal(await h.getRollingRestart({}), null, 'no rolling restart planned');
  const sim = engine.simulator;
  assert.ok(sim);
  assert.equal(sim.model.backups.busy, false, 'no backup started');
  assert.equal((await h.getBackups({})).running, null);
  assert.equal(sim.model.singleUserApi, null, 'no single user mode');
  const statuses = [...sim.model.data.values()].map((n) => n.status);
  assert.deepEqual(statuses, ['STARTED', 'STARTED'], 'no node stopped or restarted');
}

test('a viewer (no flags) is refused every request that changes the server or acts on the cluster, over the WebSocket and HTTP', { timeout: 90_000 }, async (t) => {
  const { engine, server, ask } = await stack(t, false);
  const gated = (Object.keys(REQUEST_ACCESS) as RequestName[]).filter((n) => REQUEST_ACCESS[n] === 'change' || REQUEST_ACCESS[n] === 'action');
  assert.deepEqual(gated.filter((n) => SAMPLES[n] === undefined), [], 'every gated request has a sample here');
  for (const name of gated) {
    const answer = await ask(name, SAMPLES[name]);
    assert.equal(answer.error?.code, 'FORBIDDEN', `${name}: ${JSON.stringify(answer)}`);
  }
  for (const action of ACTIONS) assert.equal((await ask('runAction', { action })).error?.code, 'FORBIDDEN', action.kind);
  for (const [path, body] of POSTS) {
    const res = await fetch(`http://127.0.0.1:${server.port}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(res.status, 403, `${path}: ${await res.text()}`);
  }
  const upload = await fetch(`http://127.0.0.1:${server.port}/api/recordings?name=x.jsonl`, { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: '{}\n' });
  assert.equal(upload.status, 403, 'importing a recording is a change');
  assert.deepEqual(await engine.handlers.listImportedRuns({}), []);
  // Anything sent late would show while the engine keeps polling.
  await new Promise((r) => setTimeout(r, 1000));
  await untouched(engine);
});

test('with --allow-changes but not --allow-actions, no operator action runs, nor any step of a rolling restart', { timeout: 90_000 }, async (t) => {
  const { engine, server, ask } = await stack(t, true);
  const actions = (Object.keys(REQUEST_ACCESS) as RequestName[]).filter((n) => REQUEST_ACCESS[n] === 'action');
  for (const name of actions) assert.equal((await ask(name, SAMPLES[name])).error?.code, 'FORBIDDEN', name);
  for (const action of ACTIONS) assert.equal((await ask('runAction', { action })).error?.code, 'FORBIDDEN', action.kind);
  for (const [path, body] of POSTS.filter(([p]) => p.startsWith('/api/rolling-restart'))) {
    const res = await fetch(`http://127.0.0.1:${server.port}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(res.status, 403, `${path}: ${await res.text()}`);
  }
  await new Promise((r) => setTimeout(r, 1000));
  await untouched(engine);
});
