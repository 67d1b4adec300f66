import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { ClusterSnapshot } from '../../../electron/contract/index.js';
import { NO_BROWSER, browserSuite, screenshot, waitInPage, withStackPage } from '../harness.js';

const skip = NO_BROWSER ?? false;
const suite = browserSuite();

/** The colour a figure is drawn in, what tells an operator whether it is live. */
const colour = (page: Page, selector: string): Promise<string> => page.$eval(selector, (el) => getComputedStyle(el).color);

test('management server lost: the legend and the headline show last-seen figures, greyed and dated; actions are disabled and say why', { skip }, async () => {
  await withStackPage(suite, { simulator: { scenario: 'steady', dataNodes: 2 }, actionsEnabled: true }, { width: 1280, height: 720 }, async (page, stack) => {
    await waitInPage(page, `document.querySelectorAll('[data-testid="node-grid"] button[aria-label^="Stop node"]:not(:disabled)').length === 2`, 60_000);
    await waitInPage(page, `Number(document.querySelector('[data-testid="headline-transactions"]')?.dataset.value) > 0`, 60_000);
    const headline = await colour(page, '[data-testid="headline-transactions"] .headline-value');
    await page.keyboard.press('3');
    const legend = '[data-testid="legend-transactions"] .legend-value';
    await waitInPage(page, `/\\/s$/.test(document.querySelector('${legend}')?.textContent ?? '')`, 60_000);
    const live = { legend: await colour(page, legend), headline };
    assert.equal(await page.$('[data-testid="legend-last-seen"]'), null, 'no last-seen words while live');
    const snapshot = (await (await fetch(new URL('/api/snapshot', stack.url))).json()) as ClusterSnapshot;
    const mgm = snapshot.nodes.find((n) => n.type === 'MGM');
    assert.ok(mgm);
    await stack.simulator.stopMgmd(mgm.nodeId);
    await page.waitForSelector('[data-testid="legend-last-seen"]', { timeout: 60_000 });
    assert.match((await page.textContent('[data-testid="legend-last-seen"]')) ?? '', /^last seen \d\d:\d\d:\d\d$/);
    assert.match((await page.textContent(legend)) ?? '', /\/s$/, 'the last value stays, as what it is');
    assert.notEqual(await colour(page, legend), live.legend, 'the legend value is no longer drawn as live');
    assert.match((await page.getAttribute('[data-testid="legend-transactions"]', 'title')) ?? '', /last seen \d\d:\d\d:\d\d \(not current\)/);
    await screenshot(page, 'e2e-stale-throughput');
    await page.keyboard.press('1');
    // The headline keeps the last figure (not a dash), dated instead of trended, and greyed.
    await page.waitForSelector('[data-testid="headline-transactions"] [data-testid="headline-last-seen"]');
    assert.match((await page.textContent('[data-testid="headline-transactions"] [data-testid="headline-last-seen"]')) ?? '', /^last seen \d\d:\d\d:\d\d$/);
    assert.ok(Number(await page.getAttribute('[data-testid="headline-transactions"]', 'data-value')) > 0, 'the last-seen throughput, not a dash');
    assert.notEqual(await colour(page, '[data-testid="headline-transactions"] .headline-value'), live.headline);
    // Actions cannot act on a cluster the page cannot see: disabled, with the reason beside them and on hover.
    await waitInPage(page, `document.querySelectorAll('[data-testid="actions-why"]').length === 2`);
    const whys = await page.$$eval('[data-testid="actions-why"]', (l) => l.map((e) => e.textContent));
    assert.deepEqual(whys, ['ndbtop lost the management server', 'ndbtop lost the management server']);
    const stop = page.locator('[data-testid="node-grid"] button[aria-label^="Stop node"]').first();
    assert.equal(await stop.isDisabled(), true);
    assert.equal(await stop.getAttribute('title'), 'Stop waits: ndbtop lost the management server');
    const describedBy = await stop.getAttribute('aria-describedby');
    assert.equal(await page.textContent(`[id="${describedBy ?? ''}"]`), 'ndbtop lost the management server', 'a screen reader hears the reason too');
    const menu = page.locator('[data-testid="cluster-actions-toggle"]');
    assert.equal(await menu.isDisabled(), true);
    assert.equal(await menu.getAttribute('title'), 'Actions wait: ndbtop lost the management server');
    await screenshot(page, 'e2e-stale-nodes');
    // Back: live figures and working buttons again.
    await stack.simulator.startMgmd(mgm.nodeId);
    await waitInPage(page, `document.querySelectorAll('[data-testid="actions-why"]').length === 0 && document.querySelectorAll('[data-testid="node-grid"] button[aria-label^="Stop node"]:not(:disabled)').length === 2`, 60_000);
    assert.equal(await menu.isDisabled(), false);
  });
});
