import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { ClusterSnapshot } from '../../../electron/contract/index.js';
import { NO_BROWSER, browserSuite, screenshot, waitInPage, withStackPage } from '../harness.js';

const skip = NO_BROWSER ?? false;
const suite = browserSuite();

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
];

/** Every header item whose words are cut (drawn wider than its box, so an ellipsis stands for the rest). */
function cutInHeader(page: Page): Promise<string[]> {
  return page.evaluate(`[...document.querySelectorAll('.app-header > *')]
    .filter((el) => el.scrollWidth > el.clientWidth + 1)
    .map((el) => el.textContent + ' (' + el.scrollWidth + ' px in ' + el.clientWidth + ')')`);
}

test('the header fits its words at 1280 and 1920, live and with the management server and the SQL node lost ("connection lost N s ago", the reason on hover)', { skip }, async () => {
  await withStackPage(suite, { simulator: { scenario: 'steady', dataNodes: 2 } }, SIZES[0] ?? { width: 1280, height: 720 }, async (page, stack) => {
    await page.waitForSelector('[data-testid="mgmd"]', { timeout: 60_000 });
    await page.waitForSelector('[data-testid="sample-age"]');
    for (const size of SIZES) {
      await page.setViewportSize(size);
      assert.deepEqual(await cutInHeader(page), [], `live at ${size.width}`);
    }
    assert.match((await page.getAttribute('[data-testid="mgmd"]', 'title')) ?? '', /^since \d\d:\d\d:\d\d \(/, 'since when is on hover');
    const snapshot = (await (await fetch(new URL('/api/snapshot', stack.url))).json()) as ClusterSnapshot;
    const mgm = snapshot.nodes.find((n) => n.type === 'MGM');
    assert.ok(mgm);
    await stack.simulator.stopMgmd(mgm.nodeId);
    // Both sources lost, as when the cluster's host goes away: the SQL node's badge shares the header with the loss.
    await stack.simulator.sql?.close();
    await waitInPage(page, `/^SQL (LOST|FAILING)/.test(document.querySelector('[data-testid="sql-source-badge"]')?.textContent ?? '')`, 60_000);
    await waitInPage(page, `/^connection lost \\d+ s ago(, retrying (in \\d+ s|now))?$/.test(document.querySelector('[data-testid="connection-problem"]')?.textContent ?? '')`, 60_000);
    assert.match((await page.getAttribute('[data-testid="connection-problem"]', 'title')) ?? '', /closed the connection/, 'the full reason on hover');
    // Let the age reach two digits: the widest the line gets for a while.
    await waitInPage(page, `/lost \\d\\d s ago/.test(document.querySelector('[data-testid="connection-problem"]')?.textContent ?? '')`, 30_000);
    for (const size of [...SIZES].reverse()) {
      await page.setViewportSize(size);
      assert.deepEqual(await cutInHeader(page), [], `lost at ${size.width}`);
      await screenshot(page, `e2e-header-lost-${size.width}`);
    }
    // The alert carries the whole reason too.
    assert.match((await page.textContent('[data-testid="alert"][data-kind="mgmd-lost"] .alert-msg')) ?? '', /closed the connection/);
  });
});
