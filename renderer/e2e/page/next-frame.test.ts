import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NO_BROWSER, browserSuite, startStack, waitInPage } from '../harness.js';

const skip = NO_BROWSER ?? false;
if (NO_BROWSER) console.log(`# renderer e2e skipped: ${NO_BROWSER}`);

const chromium = browserSuite();

/**
 * Applies a delta that takes node `id` down straight to the page's store, then asks, in the first animation-frame
 * callback after it (which runs before that frame is painted), what the node's card shows. A store→React path
 * that waited on a timer, a transition or a deferred value would still show the old status there.
 */
const statusInNextFrame = (id: number): string => `new Promise((resolve) => {
  const store = window.__ndbtopStore;
  const live = store.getState().live;
  const node = live.nodes.get(${id});
  store.receive({ type: 'delta', delta: { clusterId: live.clusterId, baseVersion: live.version, version: live.version + 1, nodes: [{ ...node, status: 'NO_CONTACT', statusRaw: 'NO_CONTACT', lastSeenAt: Date.now() }] } });
  requestAnimationFrame(() => resolve(document.querySelector('[data-testid="node-${id}"]')?.dataset.status ?? 'no card'));
})`;

test('a node going down is in the DOM of the very next frame after its push reaches the store', { skip }, async () => {
  const { dir, browser } = chromium();
  const stack = await startStack(dir, { pollIntervalMs: 1000, simulator: { scenario: 'idle', dataNodes: 4, replicas: 2 } });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  try {
    await page.goto(stack.url);
    await page.waitForSelector('[data-testid="node-2"][data-status="STARTED"]', { timeout: 30_000 });
    // Once the store holds a pushed version (not only the first getSnapshot), so the delta applies on top of it.
    await waitInPage(page, `window.__ndbtopStore.getState().live.version !== null`);
    assert.equal(await page.evaluate(statusInNextFrame(2)), 'NO_CONTACT');
  } finally {
    await page.close();
    await stack.close();
  }
});
