import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NO_BROWSER, browserSuite, startStack, waitInPage } from '../harness.js';

const skip = NO_BROWSER ?? false;
const suite = browserSuite();

/** Installed before the page's scripts: the scripts fetched by the time the first node card is in the DOM. */
const AT_FIRST_CARD = `(() => {
  const seen = new MutationObserver(() => {
    if (!document.querySelector('[data-testid^="node-"][data-status]')) return;
    seen.disconnect();
    window.__scriptsAtFirstCard = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.js')).map((e) => new URL(e.name).pathname.slice(1));
  });
  document.addEventListener('DOMContentLoaded', () => seen.observe(document.body, { subtree: true, childList: true }));
})()`;

test('every script the Nodes view needs is named by index.html, so none waits for another to run before it is fetched', { skip }, async () => {
  const { dir, browser } = suite();
  const stack = await startStack(dir, { simulator: { scenario: 'steady', dataNodes: 8, replicas: 2 } });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  try {
    await page.addInitScript(AT_FIRST_CARD);
    await page.goto(stack.url);
    await waitInPage(page, 'window.__scriptsAtFirstCard !== undefined');
    const fetched = (await page.evaluate('window.__scriptsAtFirstCard')) as string[];
    // The page as served, before any script added preload links of its own.
    const html = await (await fetch(stack.url)).text();
    const named = new Set([...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="\.\/([^"]+\.js)"/g)].map((m) => m[1]));
    assert.deepEqual(
      fetched.filter((file) => !named.has(file)),
      [],
      `chunks fetched only once a script asked for them (index.html names ${[...named].join(', ')})`,
    );
    assert.ok(fetched.some((file) => /\/mount-[\w-]+\.js$/.test(file)), `React and the components are a chunk of their own: ${fetched.join(', ')}`);
    // The contract is checked by validators compiled at build time: zod, and the building of its schemas, stay out.
    for (const file of fetched) {
      const body = await (await fetch(new URL(file, stack.url))).text();
      assert.ok(!body.includes('$ZodType'), `${file} carries zod`);
    }
  } finally {
    await page.close();
    await stack.close();
  }
});
