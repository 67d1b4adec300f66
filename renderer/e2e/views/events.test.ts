import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { ClusterSnapshot } from '../../../electron/contract/index.js';
import { NO_BROWSER, browserSuite, startStack, waitInPage } from '../harness.js';

const skip = NO_BROWSER ?? false;

const suite = browserSuite();

const rowSeverities = (page: Page): Promise<string[]> => page.$$eval('[data-testid="event-row"]', (rows) => rows.map((r) => (r as HTMLElement).dataset.severity ?? ''));

/** The element is drawn and is what a click at its centre would hit. */
async function reachable(page: Page, selector: string): Promise<boolean> {
  return page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + Math.min(r.width / 2, 40), r.top + r.height / 2);
    return r.width > 0 && top !== null && (top === el || el.contains(top));
  });
}

test('the severity filter is a threshold; a row expands to its whole message, never raw JSON; the node panel leaves the log usable', { skip }, async () => {
  const { dir, browser } = suite();
  const stack = await startStack(dir, { actionsEnabled: true, simulator: { scenario: 'steady', dataNodes: 4, speed: 4 } });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  try {
    await page.goto(stack.url);
    await page.waitForSelector('[data-testid="node-grid"] [data-testid^="node-"]', { timeout: 30_000 });
    const snapshot = (await (await fetch(new URL('/api/snapshot', stack.url))).json()) as ClusterSnapshot;
    const victim = snapshot.nodes.find((n) => n.type === 'NDB')?.nodeId ?? 0;
    stack.simulator.model.failNode(victim, { autoRestart: true, downMs: 1000 });
    const has = (s: string) => `window.__ndbtopStore.getState().live.events.some((e) => e.severity === '${s}')`;
    await waitInPage(page, `${has('ALERT')} && ${has('INFO')}`, 120_000);
    // "At least INFO" keeps the ALERTs too (an exact match would drop them) …
    await page.selectOption('[data-testid="event-severity"]', 'INFO');
    await waitInPage(page, `document.querySelectorAll('[data-testid="event-row"][data-severity="ALERT"]').length > 0 && document.querySelectorAll('[data-testid="event-row"][data-severity="INFO"]').length > 0`);
    assert.ok((await rowSeverities(page)).every((s) => s !== 'DEBUG' && s !== ''));
    assert.equal(await page.textContent('[data-testid="event-severity"] option:checked'), 'at least INFO');
    // … and "at least WARNING" drops the INFOs but keeps the ALERTs.
    await page.selectOption('[data-testid="event-severity"]', 'WARNING');
    await waitInPage(page, `document.querySelectorAll('[data-testid="event-row"][data-severity="INFO"]').length === 0`);
    const shown = await rowSeverities(page);
    assert.ok(shown.includes('ALERT') && shown.every((s) => ['WARNING', 'ERROR', 'CRITICAL', 'ALERT'].includes(s)), `rows ${shown.join(',')}`);

    await page.selectOption('[data-testid="event-severity"]', '');
    // Paused, so the log stops moving under the click; the row by its sequence number, not its position.
    await page.keyboard.press('p');
    await page.waitForSelector('[data-testid="pause"][aria-pressed="true"]');
    const seq = await page.getAttribute('[data-testid="event-row"][data-count="1"]', 'data-seq');
    const row = page.locator(`[data-testid="event-row"][data-seq="${seq ?? ''}"]`);
    const text = (await row.locator('.ev-text').textContent()) ?? '';
    await row.locator('.ev-text').click();
    await row.locator('[data-testid="event-full-text"]').waitFor();
    assert.equal(await row.locator('[data-testid="event-full-text"]').textContent(), text, 'the whole sentence');
    assert.doesNotMatch((await row.locator('[data-testid="event-fold-detail"]').textContent()) ?? '', /[{}"]/, 'no raw JSON');
    assert.equal(await row.locator('.ev-text').getAttribute('title'), text);
    await page.keyboard.press('p');

    // A node opened from a tile: the log beside the grid keeps its filters and messages reachable.
    await page.keyboard.press('5');
    await page.selectOption('[data-testid="density"]', 'compact');
    await page.keyboard.press('1');
    await page.click(`[data-testid="node-grid"] [data-testid="node-${victim}"]`);
    await page.waitForSelector('[data-testid="node-detail"]');
    for (const selector of ['[data-testid="event-search"]', '[data-testid="event-severity"]', '[data-testid="event-row"] .ev-text']) {
      assert.ok(await reachable(page, selector), `${selector} is covered by the node panel`);
    }
  } finally {
    await page.close();
    await stack.close();
  }
});
