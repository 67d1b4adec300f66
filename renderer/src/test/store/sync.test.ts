import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NdbtopApi, PushMessage } from '../../contract.js';
import { nextTask } from '../../store/next-task.js';
import { createAppStore } from '../../store/store.js';
import { connectStore } from '../../store/sync.js';
import { event, nodeView, snapshot } from '../fixtures.js';

/** Just enough of the API for the sync: a snapshot answer, empty backfill answers, and a push channel the test drives. */
function fakeApi(): { api: NdbtopApi; push(message: PushMessage): void } {
  let listener: ((message: PushMessage) => void) | null = null;
  const api = {
    getAppInfo: async () => ({ version: 'test', actionsEnabled: false }),
    listClusters: async () => [],
    getSnapshot: async () => snapshot([1, 2, 3].map((id) => nodeView(id))),
    getEvents: async () => [event(1)],
    getHistory: async () => ({ at: [], series: [] }),
    onPush(l: (message: PushMessage) => void) {
      listener = l;
      return () => (listener = null);
    },
  } as unknown as NdbtopApi;
  return { api, push: (message) => listener?.(message) };
}

test('what the link delivers is stored in a task after the one that received it, in order, pushes of one task together', async () => {
  const store = createAppStore();
  const { api, push } = fakeApi();
  const sync = connectStore(store, api);
  // The start: the snapshot answer, then the backfill's (events, the two histories), each stored in a task of its own.
  while (store.getState().live.historyVersion < 2) await nextTask();
  assert.equal(store.getState().live.nodes.size, 3);
  assert.equal(store.getState().live.events.length, 1);

  const changes: Array<number | null> = [];
  const off = store.subscribe((s) => changes.push(s.live.version));
  push({ type: 'snapshot', version: 10, snapshot: snapshot([1, 2, 3].map((id) => nodeView(id))) });
  push({ type: 'delta', delta: { clusterId: 'c1', baseVersion: 10, version: 11, nodes: [nodeView(2, { status: 'NO_CONTACT' })] } });
  push({ type: 'delta', delta: { clusterId: 'c1', baseVersion: 11, version: 12, nodes: [nodeView(3, { status: 'NO_CONTACT' })] } });
  assert.deepEqual(changes, [], 'nothing is stored in the task that received the pushes');
  await nextTask();
  assert.deepEqual(changes, [10, 11, 12], 'all three, in the order they came, in one later task');
  assert.equal(store.getState().live.nodes.get(2)?.status, 'NO_CONTACT');
  assert.equal(store.getState().live.nodes.get(3)?.status, 'NO_CONTACT');

  // Stopped: what was received but not yet stored is dropped with it.
  push({ type: 'delta', delta: { clusterId: 'c1', baseVersion: 12, version: 13, nodes: [nodeView(1, { status: 'NO_CONTACT' })] } });
  sync.stop();
  await nextTask();
  assert.equal(store.getState().live.version, 12);
  off();
});
