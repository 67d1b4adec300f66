import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { NO_BROWSER, browserSuite, startStack } from './harness.js';

const skip = NO_BROWSER ?? false;

const suite = browserSuite();

const focusedIn = (page: Page, testId: string): Promise<boolean> => page.evaluate(`Boolean(document.activeElement?.closest('[data-testid="${testId}"]'))`);

test('shortcuts work right after a dropdown or a checkbox was used; number keys switch the view in dashboard mode', { skip }, async () => {
  const { dir, browser } = suite();
  const stack = await startStack(dir, { simulator: { scenario: 'steady', dataNodes: 2 } });
  const page = await browser.newPage();
  try {
    await page.goto(stack.url);
    await page.waitForSelector('[data-testid="node-grid"]', { timeout: 30_000 });
    await page.keyboard.press('4');
    await page.waitForSelector('main[data-view="events"]');
    await page.focus('[data-testid="event-severity"]');
    await page.selectOption('[data-testid="event-severity"]', 'WARNING');
    await page.keyboard.press('3');
    await page.waitForSelector('main[data-view="throughput"]');
    await page.keyboard.press('1');
    await page.waitForSelector('main[data-view="nodes"]');
    await page.click('.filter-bar input[type="checkbox"]');
    await page.keyboard.press('2');
    await page.waitForSelector('main[data-view="restarts"]');
    await page.keyboard.press('1');
    await page.keyboard.press('f');
    await page.waitForSelector('.app.dashboard main[data-view="nodes"]');
    await page.keyboard.press('3');
    await page.waitForSelector('.app.dashboard main[data-view="throughput"] [data-testid="throughput-chart"]');
    await page.keyboard.press('1');
    await page.waitForSelector('.app.dashboard main[data-view="nodes"] [data-testid="node-grid"]');
  } finally {
    await page.close();
    await stack.close();
  }
});

test('dialogs take the focus, keep Tab inside, and Escape cancels and gives the focus back', { skip }, async () => {
  const { dir, browser } = suite();
  const stack = await startStack(dir, { actionsEnabled: true, simulator: { scenario: 'steady', dataNodes: 2 } });
  const page = await browser.newPage();
  try {
    await page.goto(stack.url);
    await page.waitForSelector('[data-testid^="node-"] .card-actions button', { timeout: 30_000 });
    await page.keyboard.press('?');
    await page.waitForSelector('[data-testid="help"]');
    assert.ok(await focusedIn(page, 'help'), 'help has the focus');
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      assert.ok(await focusedIn(page, 'help'), `Tab ${i + 1} left the help`);
    }
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="help"]', { state: 'detached' });

    const stop = page.locator('[data-testid^="node-"] .card-actions button', { hasText: 'Stop' }).first();
    await stop.click();
    await page.waitForSelector('[data-testid="action-dialog"]');
    assert.ok(await focusedIn(page, 'action-dialog'), 'the dialog has the focus');
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press(i % 2 === 0 ? 'Tab' : 'Shift+Tab');
      assert.ok(await focusedIn(page, 'action-dialog'), `Tab ${i + 1} left the dialog`);
    }
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="action-dialog"]', { state: 'detached' });
    assert.equal(await stop.evaluate((el) => el === document.activeElement), true, 'focus back on the button that opened it');
    assert.equal(await page.evaluate(`window.__ndbtopStore.getState().ui.pendingAction`), null);
  } finally {
    await page.close();
    await stack.close();
  }
});
