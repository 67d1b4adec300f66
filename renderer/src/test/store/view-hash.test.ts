import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAppStore } from '../../store/store.js';
import { syncViewWithHash, viewFromHash } from '../../view-hash.js';

function fakeWindow(hash: string) {
  const listeners: Array<() => void> = [];
  const win = {
    location: { hash },
    history: { replaceState: (_s: unknown, _t: string, url: string) => void (win.location.hash = url) },
    addEventListener: (_type: string, fn: () => void) => void listeners.push(fn),
    navigate(to: string) {
      win.location.hash = to;
      listeners.forEach((l) => l());
    },
  };
  return win;
}

test('views follow the URL hash and the hash follows the view', () => {
  assert.equal(viewFromHash('#/throughput'), 'throughput');
  assert.equal(viewFromHash('#events'), 'events');
  assert.equal(viewFromHash('#/nope'), null);
  const store = createAppStore();
  const win = fakeWindow('#/restarts');
  syncViewWithHash(store, win as never);
  assert.equal(store.getState().ui.view, 'restarts', 'the hash at load picks the view');
  win.navigate('#/events');
  assert.equal(store.getState().ui.view, 'events', 'a hash change (the desktop View menu) switches the view');
  store.setUi({ view: 'throughput' });
  assert.equal(win.location.hash, '#/throughput', 'switching views updates the hash for a shareable URL');
});
