import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NO_BROWSER, buildRenderer, launchChromium, startStack, waitInPage } from '../harness.js';

if (NO_BROWSER) console.log(`# renderer e2e skipped: ${NO_BROWSER}`);

test('a page opened after the engine has watched a quiet cluster for a while lists what the engine saw, not "No events yet"', { skip: NO_BROWSER ?? false, timeout: 240_000 }, async () => {
  const built = await buildRenderer();
  const stack = await startStack(built.dir, { simulator: { scenario: 'steady', dataNodes: 4, speed: 5 } });
  const browser = await launchChromium();
  try {
    // The engine has been watching: statistics arrived, nothing a log lists came from the cluster.
    const deadline = Date.now() + 60_000;
    while ((await stack.engine.handlers.getCounters({})).nodes.every((n) => n.lastReportAt === null)) {
      if (Date.now() > deadline) throw new Error('no statistics reached the engine');
      await new Promise((r) => setTimeout(r, 100));
    }
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    await page.goto(stack.url);
    await waitInPage(page, `document.querySelectorAll('[data-testid="event-row"]').length >= 2`, 60_000);
    const text = await page.locator('.event-log').innerText();
    assert.doesNotMatch(text, /No events yet/);
    assert.match(text, /ndbtop connected to management server/);
    assert.match(text, /First status read by ndbtop/);
  } finally {
    await browser.close();
    await stack.close();
    await built.remove();
  }
});
