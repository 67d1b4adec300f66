import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { GRID_NODES, NO_BROWSER, browserSuite, startStack, withStackPage } from '../harness.js';

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
    // Each view has one name: the help's words for its key are its tab's.
    const helpRows = await page.$$eval('[data-testid="help"] tr', (rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')));
    for (const key of ['0', '6']) {
      const tab = await page.$eval(`[data-testid="view-bar"] .view-tab:has(kbd:text-is("${key}"))`, (b) => (b.textContent ?? '').replace(/^\d\s*/, ''));
      assert.deepEqual(helpRows.find(([k]) => k === key), [key, `${tab} view`], `key ${key}`);
    }
    assert.equal(await page.textContent('[data-testid="view-io"]'), '0 Redo & transport');
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      assert.ok(await focusedIn(page, 'help'), `Tab ${i + 1} left the help`);
    }
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="help"]', { state: 'detached' });

    const restart = page.locator('[data-testid^="node-"] .card-actions button', { hasText: 'Restart' }).first();
    await restart.click();
    await page.waitForSelector('[data-testid="action-dialog"] input[type="checkbox"]');
    // Never on "initial (wipe the node's file system)": a Space pressed at once would tick it.
    assert.equal(await page.evaluate(`document.activeElement?.dataset.testid`), 'action-cancel', 'the restart dialog opens on Cancel');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="action-dialog"]', { state: 'detached' });

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

/** The grid node that has the focus (the card or tile itself), or null. */
const focusedNode = (page: Page): Promise<string | null> => page.evaluate(`document.activeElement?.getAttribute('data-node-item') ?? null`);

test('card layout: the grid is one tab stop, the arrows, Home and End move between nodes, every action names its node', { skip }, async () => {
  await withStackPage(suite, { actionsEnabled: true, simulator: { scenario: 'steady', dataNodes: 4 } }, { width: 1280, height: 720 }, async (page) => {
    await page.waitForSelector('[data-testid="node-grid"][data-density="comfortable"] .card-actions button', { timeout: 30_000 });
    const order = await page.$$eval(GRID_NODES, (els) => els.map((e) => e.getAttribute('data-testid')?.replace('node-', '') ?? ''));
    assert.ok(order.length >= 6, `data, management and API nodes: ${order.join(',')}`);

    // From the top of the page the first tab stop skips to the nodes.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(`document.activeElement?.textContent`), 'Skip to the nodes');
    const hint = page.locator('[data-testid="grid-keys-hint"]');
    assert.equal(await hint.isVisible(), false, 'no hint before the grid has the focus');
    await page.keyboard.press('Enter');
    await waitForFocus(page, order[0]);
    // Where the focus lands it says how to go on: seen on screen and heard as the node's description.
    assert.equal(await hint.isVisible(), true, 'the keys are shown where the focus lands');
    assert.match((await hint.textContent()) ?? '', /← → ↑ ↓ move between nodes/);
    assert.equal(await page.evaluate(`document.getElementById(document.activeElement.getAttribute('aria-describedby'))?.dataset.testid`), 'grid-keys-hint');

    // Tab from the node reaches its own actions, then leaves the grid: one tab stop, not one per card and button.
    const actions = await page.locator(`[data-node-item="${order[0]}"] .card-actions button`).count();
    for (let i = 0; i < actions; i++) await page.keyboard.press('Tab');
    assert.ok(await focusedIn(page, 'node-grid'), 'on the focused card’s last action');
    await page.keyboard.press('Tab');
    assert.equal(await focusedIn(page, 'node-grid'), false, 'the next Tab leaves the grid');
    await page.keyboard.press('Shift+Tab');
    for (let i = 0; i < actions; i++) await page.keyboard.press('Shift+Tab');
    await waitForFocus(page, order[0]);

    await page.keyboard.press('ArrowRight');
    await waitForFocus(page, order[1]);
    await page.keyboard.press('ArrowLeft');
    await waitForFocus(page, order[0]);
    await page.keyboard.press('End');
    await waitForFocus(page, order.at(-1));
    await page.keyboard.press('Home');
    await waitForFocus(page, order[0]);
    // Down lands on a node whose card starts below this one's, then up comes back to the first row.
    await page.keyboard.press('ArrowDown');
    const below = await focusedNode(page);
    assert.ok(below !== null && below !== order[0], 'ArrowDown moved');
    const [top, lower] = await Promise.all([order[0], below].map((id) => page.locator(`[data-node-item="${id}"]`).boundingBox()));
    assert.ok(top && lower && lower.y >= top.y + top.height - 1, `node ${below} is below node ${order[0]}`);
    await page.keyboard.press('ArrowUp');
    await waitForFocus(page, order[0]);
    // Still one tab stop: the node that had the focus last.
    assert.equal(await page.locator('[data-testid="node-grid"] [data-node-item][tabindex="0"]').count(), 1);

    // Every action is named with its node.
    const stoppable = await page.$$eval('[data-testid="node-grid"] [data-node-item][data-status="STARTED"] .card-actions', (els) => els.map((e) => e.closest('[data-node-item]')?.getAttribute('data-node-item')));
    assert.ok(stoppable.length >= 4, 'the data nodes have actions');
    for (const id of stoppable) {
      await page.getByRole('button', { name: `Stop node ${id}`, exact: true }).waitFor();
      await page.getByRole('button', { name: `Restart node ${id}`, exact: true }).waitFor();
    }
    assert.equal(await page.getByRole('button', { name: 'Stop', exact: true }).count(), 0, 'no action named just "Stop"');
  });
});

async function waitForFocus(page: Page, id: string | undefined): Promise<void> {
  assert.ok(id);
  for (let i = 0; i < 50 && (await focusedNode(page)) !== id; i++) await page.waitForTimeout(20);
  assert.equal(await focusedNode(page), id, `node ${id} has the focus`);
}
