import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { VIEWS, viewKey } from '../src/store/ui-slice.js';
import { NO_BROWSER, browserSuite, screenshot, waitInPage, withStackPage } from './harness.js';

const skip = NO_BROWSER ?? false;
const suite = browserSuite();
// Every reading within a fraction of a second, so a burst of the congested network shows at once.
const FAST = { intervals: { logspaces: 300, transporters: 300, transporterDetails: 300, diskWriteSpeed: 300, diskPageBuffer: 300 }, loadEveryMs: 300, connectTimeoutMs: 2000, queryTimeoutMs: 2000 };
const IO_KEY = viewKey(VIEWS.indexOf('io'));

const count = (page: Page, selector: string): Promise<number> => page.evaluate(`document.querySelectorAll(${JSON.stringify(selector)}).length`) as Promise<number>;

test('Redo & transport: each data node’s redo/undo fill, write speed and disk page buffer; the link matrix turns red when the congested network overloads, with its alert; screenshots', { skip }, async () => {
  await withStackPage(suite, { simulator: { scenario: 'congested-network', dataNodes: 4, replicas: 2, speed: 8 }, sqlWatch: FAST }, { width: 1280, height: 720 }, async (page) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForSelector('[data-testid^="node-"][data-status="STARTED"]', { timeout: 30_000 });
    await page.keyboard.press(IO_KEY);
    await waitInPage(page, `document.querySelectorAll('[data-testid="io-log-row"]').length === 4`);
    await waitInPage(page, `[...document.querySelectorAll('[data-testid="io-redo"]')].every((c) => c.dataset.percent !== '')`);
    assert.match((await page.textContent('[data-testid="io-log-row"] [data-testid="io-redo-speed"]')) ?? '', /B\/s of .*B\/s target/);
    await waitInPage(page, `[...document.querySelectorAll('[data-testid="io-dpb"]')].every((c) => / %$/.test(c.textContent))`);
    // 4 data nodes × (3 other data nodes + management server + API nodes).
    await waitInPage(page, `document.querySelectorAll('[data-testid="io-cell"][data-from]').length >= 16`);
    assert.equal(await count(page, '[data-testid="io-cell"][data-from="2"][data-to="2"]'), 0, 'a node has no link to itself');
    await screenshot(page, 'io-1280-dark-calm');
    // The burst: the replication links between the members of a node group overload, and the alert says which.
    await waitInPage(page, `document.querySelector('[data-testid="io-cell"][data-tone="bad"]') !== null`, 40_000);
    assert.match((await page.textContent('[data-testid="io-link-state"]')) ?? '', /[1-9]\d* links? overloaded/);
    await waitInPage(page, `document.querySelector('[data-testid^="alert"][data-kind="transporter-overload"]') !== null`);
    const hot = await page.$$eval('[data-testid="io-cell"][data-tone="bad"]', (cells) => cells.map((c) => [Number((c as HTMLElement).dataset.from), Number((c as HTMLElement).dataset.to)]));
    // Node groups are (2, 3) and (4, 5): only links inside a node group carry the replication that overloads.
    for (const [from, to] of hot) assert.ok(Math.floor((from! - 2) / 2) === Math.floor((to! - 2) / 2), `overloaded ${from}→${to} inside a node group`);
    const shares = await page.$$eval('[data-testid="io-api"]', (items) => items.map((i) => (i as HTMLElement).dataset.behind));
    assert.ok(shares.length >= 1 && shares.every((b) => b === 'false'), `the connected API nodes share the traffic evenly, none behind: ${JSON.stringify(shares)}`);
    await screenshot(page, 'io-1280-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await screenshot(page, 'io-1280-light');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await screenshot(page, 'io-1920-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'io-1920-dark');
  });
});

test('without an SQL source the view is one line saying how to turn it on', { skip }, async () => {
  await withStackPage(suite, { simulator: { scenario: 'steady', dataNodes: 2, sql: false } }, { width: 1280, height: 720 }, async (page) => {
    await page.waitForSelector('[data-testid^="node-"][data-status="STARTED"]', { timeout: 30_000 });
    await page.keyboard.press(IO_KEY);
    await page.waitForSelector('[data-testid="io-hint"]');
    assert.match((await page.textContent('[data-testid="io-hint"]')) ?? '', /^No SQL source: .* --sql mysql:\/\/USER@HOST/);
    assert.equal(await count(page, '[data-testid="io-view"]'), 0);
    await screenshot(page, 'io-no-sql');
  });
});
