import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { compileFunction } from 'node:vm';
import type { NdbtopApi } from '../../contract/page-safe/api.js';
import type { PushMessage } from '../../contract/schemas/channels.js';
import { dispatchRequest } from '../../serve/transport/bridge.js';
import { createFixtureEngine, FIXTURE_SNAPSHOT } from '../../serve/test/fixture-engine.js';
import { createPreloadApi, type RendererIpc } from '../preload-api.js';
import { PUSH_CHANNEL, REQUEST_CHANNEL_PREFIX } from '../../contract/page-safe/vocabulary.js';
import { zodPageValidators } from '../../contract/schemas/validate.js';

/**
 * Electron's IPC cannot run here; this stands in for ipcRenderer ↔ ipcMain with the same channel names, routed
 * into the real bridge the main process uses, so the preload's mapping and validation are what is tested.
 */
function loopbackIpc(engine: ReturnType<typeof createFixtureEngine>): RendererIpc & { invoked: string[] } {
  const invoked: string[] = [];
  const listeners = new Map<(e: unknown, p: unknown) => void, () => void>();
  return {
    invoked,
    async invoke(channel, request) {
      invoked.push(channel);
      return dispatchRequest(engine.handlers, channel.slice(REQUEST_CHANNEL_PREFIX.length), request);
    },
    on(channel, listener) {
      assert.equal(channel, PUSH_CHANNEL);
      listeners.set(listener, engine.subscribe((m) => listener(null, m)));
    },
    removeListener(_channel, listener) {
      listeners.get(listener)?.();
      listeners.delete(listener);
    },
  };
}

test('one fixed channel per request; answers and errors come back as the contract says', async () => {
  const engine = createFixtureEngine();
  const ipc = loopbackIpc(engine);
  const api = createPreloadApi(ipc, zodPageValidators);
  assert.deepEqual(await api.getSnapshot({}), FIXTURE_SNAPSHOT);
  await assert.rejects(api.runAction({ action: { kind: 'start', nodeId: 1 } }), /^NdbtopRequestError: FORBIDDEN: operator actions are disabled$/);
  assert.deepEqual(ipc.invoked, ['ndbtop:getSnapshot', 'ndbtop:runAction']);
});

test('pushes reach every listener once, invalid ones are dropped, unsubscribing detaches from IPC', async () => {
  const engine = createFixtureEngine();
  const api = createPreloadApi(loopbackIpc(engine), zodPageValidators);
  const a: PushMessage[] = [];
  const b: PushMessage[] = [];
  const offA = api.onPush((m) => a.push(m));
  const offB = api.onPush((m) => b.push(m));
  assert.equal(engine.subscribers, 1);
  engine.push({ type: 'clusters', clusters: [] });
  engine.push({ type: 'nonsense' } as unknown as PushMessage);
  offA();
  offB();
  assert.equal(engine.subscribers, 0);
  assert.deepEqual(a, [{ type: 'clusters', clusters: [] }]);
  assert.deepEqual(b, a);
});

test('pushes with text from outside are shown under the outside-text rule; a history push, the engine\'s numbers, is handed on as validated', async () => {
  const engine = createFixtureEngine();
  const api = createPreloadApi(loopbackIpc(engine), zodPageValidators);
  const got: PushMessage[] = [];
  const off = api.onPush((m) => got.push(m));
  const event = { seq: 1, at: 1000, typeId: 59, name: 'NDBStopForced', category: null, severity: null, sourceNodeId: 3, subjectNodeId: null, text: '\u202eKO 3 edon', fields: {} };
  engine.push({ type: 'events', clusterId: 'c1', events: [event] });
  engine.push({ type: 'clusters', clusters: [] });
  // A key the page never shows: walking every key of every point, every second, is the cost left out.
  const history: PushMessage = { type: 'history', clusterId: 'c1', points: [{ at: 1000, values: { 'node.1.transactions': 5, 'node.2\x1b': 1 } }] };
  engine.push(history);
  off();
  assert.deepEqual(got, [{ type: 'events', clusterId: 'c1', events: [{ ...event, text: '\\u202eKO 3 edon' }] }, { type: 'clusters', clusters: [] }, history]);
});

test('a main-process answer outside the contract is an error, not data', async () => {
  const api = createPreloadApi({ invoke: async () => ({ hello: 1 }), on: () => undefined, removeListener: () => undefined }, zodPageValidators);
  await assert.rejects(api.getAppInfo({}), /BAD_MESSAGE/);
});

/** Runs the bundle as a sandboxed preload runs: a CommonJS function whose `require` knows `electron` and nothing else. */
function runPreload(source: string, ipcRenderer: RendererIpc): { api: NdbtopApi; required: string[]; exposed: string[] } {
  const exposed = new Map<string, unknown>();
  const required: string[] = [];
  const electron = { contextBridge: { exposeInMainWorld: (key: string, value: unknown) => exposed.set(key, value) }, ipcRenderer };
  const module = { exports: {} };
  const require = (id: string): unknown => {
    required.push(id);
    if (id === 'electron') return electron;
    throw new Error(`the preload requires ${id}`);
  };
  compileFunction(source, ['require', 'module', 'exports'])(require, module, module.exports);
  return { api: exposed.get('ndbtop') as NdbtopApi, required, exposed: [...exposed.keys()] };
}

test('the bundled preload Electron loads: CommonJS needing only electron, the same API, pushes and answers checked by the compiled contract', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-preload-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'preload.cjs');
  const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-preload.ts', file], { encoding: 'utf8' });
  assert.equal(built.status, 0, built.stderr);
  const source = await readFile(file, 'utf8');

  const engine = createFixtureEngine();
  const { api, required, exposed } = runPreload(source, loopbackIpc(engine));
  assert.deepEqual(required, ['electron']);
  assert.deepEqual(exposed, ['ndbtop']);
  assert.deepEqual(await api.getSnapshot({}), FIXTURE_SNAPSHOT);

  const got: PushMessage[] = [];
  const dropped: unknown[] = [];
  t.mock.method(console, 'error', (...args: unknown[]) => dropped.push(args[0]));
  const off = api.onPush((m) => got.push(m));
  engine.push({ type: 'clusters', clusters: [] });
  engine.push({ type: 'snapshot', version: 1, snapshot: { ...FIXTURE_SNAPSHOT, nodes: [{ ...FIXTURE_SNAPSHOT.nodes[0], status: 'BOGUS' }] } } as unknown as PushMessage);
  off();
  assert.deepEqual(got, [{ type: 'clusters', clusters: [] }]);
  assert.deepEqual(dropped, ['ndbtop: push dropped: invalid push message at snapshot.nodes.0.status: must be equal to one of the allowed values']);

  const wrong = runPreload(source, { invoke: async () => ({ ok: true, response: { hello: 1 } }), on: () => undefined, removeListener: () => undefined });
  await assert.rejects(wrong.api.getAppInfo({}), /^ContractError: invalid response to getAppInfo: must have required property /);
});
