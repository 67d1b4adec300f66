import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { NO_BROWSER, browserSuite, screenshot, waitInPage, withStackPage } from '../harness.js';

const skip = NO_BROWSER ?? false;
if (NO_BROWSER) console.log(`# renderer e2e skipped: ${NO_BROWSER}`);
const chromium = browserSuite();
const state = `document.querySelector('[data-testid="sql-source-state"]')?.textContent`;

/** Settings once the page shows the cluster (a key pressed before the first snapshot lands nowhere). */
async function openSettings(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="node-2"]');
  await page.keyboard.press('5');
  await page.waitForSelector('.settings-view');
}

test("Settings: the SQL source's state and self-load; a profile's SQL nodes from the API nodes offered, or typed, reach its cluster", { skip, timeout: 90_000 }, async () => {
  await withStackPage(chromium, { simulator: { scenario: 'steady', dataNodes: 2 } }, { width: 1280, height: 900 }, async (page, stack) => {
    const sql = stack.simulator.sql;
    assert.ok(sql, 'the embedded simulator has its SQL node');
    await openSettings(page);
    await waitInPage(page, `${state} === 'UP'`);
    const port = new URL(sql.url).port;
    assert.match((await page.textContent('[data-testid="sql-source"]')) ?? '', new RegExp(`mysql://root@127\\.0\\.0\\.1:${port}`));
    await waitInPage(page, `/queries take \\d+\\.\\d % of the SQL node's time \\(\\d+ so far\\)/.test(document.querySelector('[data-testid="sql-self-load"]')?.textContent ?? '')`);

    // The connected API nodes are offered with MySQL's port: ticking one and typing the user makes its URL.
    await waitInPage(page, `document.querySelectorAll('[data-testid="profile-sql"] input[type="checkbox"]').length > 0`);
    await page.fill('[aria-label="profile name"]', 'guess');
    await page.fill('[aria-label="connect string"]', stack.simulator.connectstring);
    await page.fill('[aria-label="SQL user"]', 'monitor');
    const offered = ((await page.textContent('[data-testid="profile-sql"] label')) ?? '').trim();
    const apiAddresses = await page.evaluate(`[...document.querySelectorAll('[data-testid="profile-sql"] label')].map((l) => l.textContent.trim())`);
    assert.match(offered, /^10\.0\.0\.2\d:3306$/, 'an API node of the simulator, with MySQL\'s port');
    assert.equal((apiAddresses as string[]).length, 3, 'one per connected API node');
    await page.check('[data-testid="profile-sql"] input[type="checkbox"]');
    await page.click('text=Save profile');
    await waitInPage(page, `document.querySelector('[data-testid="watch-profile-guess"]')?.parentElement?.textContent?.includes('SQL mysql://monitor@${offered}')`);

    // A profile with the SQL node typed whole: watching it starts its cluster's own SQL source.
    await page.fill('[aria-label="profile name"]', 'lab');
    await page.fill('[aria-label="connect string"]', stack.simulator.connectstring);
    await page.fill('[aria-label="other SQL nodes"]', sql.url);
    await page.click('text=Save profile');
    await page.click('[data-testid="watch-profile-lab"]');
    await waitInPage(page, `document.querySelector('.cluster-name')?.textContent?.includes('lab')`);
    await waitInPage(page, `${state} === 'UP'`);
    await screenshot(page, 'e2e-settings-sql-source');
  });
});

test('Settings without an SQL source: one line says how to turn it on', { skip, timeout: 60_000 }, async () => {
  await withStackPage(chromium, { simulator: { scenario: 'steady', dataNodes: 2, sql: false } }, { width: 1280, height: 900 }, async (page) => {
    await openSettings(page);
    await waitInPage(page, `document.querySelector('[data-testid="sql-source"]')?.textContent?.includes('--sql mysql://USER@HOST[:PORT]')`);
    assert.equal(await page.$('[data-testid="sql-source-state"]'), null);
  });
});
