import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { ClusterSnapshot } from '../../../electron/contract/index.js';
import { NO_BROWSER, boxesInPage, browserSuite, screenshot, waitInPage, withStackPage } from '../harness.js';

const skip = NO_BROWSER ?? false;

const suite = browserSuite();

/**
 * Every action button of every card, scrolled to if need be, is the topmost element at its own centre and takes a
 * real click: the click opens the confirmation dialog, Escape cancels it.
 */
async function clickEveryCardButton(page: Page): Promise<number> {
  const count = await page.locator('[data-testid^="node-"] .card-actions button').count();
  for (let i = 0; i < count; i++) {
    const button = page.locator('[data-testid^="node-"] .card-actions button').nth(i);
    await button.scrollIntoViewIfNeeded();
    const covered = await button.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return top && (top === el || el.contains(top)) ? null : `${el.closest('[data-testid]')?.getAttribute('data-testid')} "${el.textContent}" is under ${top?.outerHTML.slice(0, 120)}`;
    });
    assert.equal(covered, null);
    await button.click({ timeout: 10_000 });
    await page.waitForSelector('[data-testid="action-dialog"]');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="action-dialog"]', { state: 'detached' });
  }
  return count;
}

/**
 * What breaks the view bar's one row: an item below the first one's top (a second row), or past the bar's right
 * edge. Items of a `display: contents` wrapper count as the bar's own.
 */
async function viewBarRows(page: Page): Promise<string[]> {
  // A string, not a function: the bundler's helpers for named inner functions do not exist in the page.
  return page.evaluate(`(() => {
    const bar = document.querySelector('[data-testid="view-bar"]');
    const items = (el) => [...el.children].flatMap((c) => (getComputedStyle(c).display === 'contents' ? items(c) : getComputedStyle(c).display === 'none' ? [] : [c]));
    const edge = bar.getBoundingClientRect().right;
    const boxes = items(bar).map((el) => ({ text: (el.textContent ?? '').slice(0, 30), box: el.getBoundingClientRect() })).filter((b) => b.box.height > 0);
    const top = Math.min(...boxes.map((b) => b.box.top));
    return [
      ...boxes.filter((b) => b.box.top > top + 12).map((b) => '"' + b.text + '" on a second row (' + (b.box.top - top) + ' px lower)'),
      ...boxes.filter((b) => b.box.right > edge + 0.5).map((b) => '"' + b.text + '" past the bar right edge (' + b.box.right + ' > ' + edge + ')'),
      ...(bar.scrollWidth > bar.clientWidth ? ['the bar scrolls (' + bar.scrollWidth + ' > ' + bar.clientWidth + ')'] : []),
    ];
  })()`);
}

for (const viewport of [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
]) {
  test(`at ${viewport.width}×${viewport.height} the view bar is one row with the actions; its menu works by keyboard`, { skip }, async () => {
    await withStackPage(suite, { actionsEnabled: true, simulator: { scenario: 'steady', dataNodes: 4, mgmNodes: 2, apiNodes: 6, connectedApiNodes: 2 } }, viewport, async (page) => {
      await page.waitForSelector('[data-testid="cluster-actions-toggle"]', { timeout: 30_000 });
      assert.deepEqual(await viewBarRows(page), []);
      await page.focus('[data-testid="cluster-actions-toggle"]');
      await page.keyboard.press('Enter');
      await page.waitForSelector('[data-testid="cluster-actions-menu"]', { state: 'visible' });
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(`document.activeElement?.textContent`), 'Start backup', 'Tab goes into the menu');
      await page.keyboard.press('Escape');
      await page.waitForSelector('[data-testid="cluster-actions-menu"]', { state: 'hidden' });
      assert.equal(await page.evaluate(`document.activeElement?.dataset.testid`), 'cluster-actions-toggle', 'the focus is back on the toggle');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.waitForSelector('[data-testid="action-dialog"]');
      assert.equal(await page.isHidden('[data-testid="cluster-actions-menu"]'), true, 'choosing an action closes the menu');
      await page.keyboard.press('Escape');
    });
  });

  test(`at ${viewport.width}×${viewport.height} no heading or row covers a card's buttons, right after load and after an alert`, { skip }, async () => {
    await withStackPage(suite, { actionsEnabled: true, simulator: { scenario: 'steady', dataNodes: 4, mgmNodes: 2, apiNodes: 6, connectedApiNodes: 2 } }, viewport, async (page, stack) => {
      await page.waitForSelector('[data-testid="node-grid"][data-density="comfortable"] [data-testid^="node-"] .card-actions button', { timeout: 30_000 });
      // Right after load: nothing switched, nothing resized.
      const atLoad = await clickEveryCardButton(page);
      assert.ok(atLoad >= 4, `${atLoad} buttons`);
      const snapshot = (await (await fetch(new URL('/api/snapshot', stack.url))).json()) as ClusterSnapshot;
      const victim = snapshot.nodes.find((n) => n.type === 'NDB')?.nodeId ?? 0;
      stack.simulator.model.failNode(victim);
      await page.waitForSelector(`[data-testid="alert"][data-node="${victim}"]`, { timeout: 30_000 });
      await waitInPage(page, `document.querySelector('[data-testid="node-${victim}"]')?.dataset.status !== 'STARTED'`);
      await screenshot(page, `layout-after-alert-${viewport.width}`);
      assert.equal(await page.getAttribute('[data-testid="node-grid"]', 'data-density'), 'comfortable', 'still cards');
      assert.ok((await clickEveryCardButton(page)) > 0);
    });
  });
}

/** Section headings whose text does not fit their box. */
async function cutHeadings(page: Page): Promise<string[]> {
  return page.$$eval('.group-head', (els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1).map((e) => e.textContent ?? ''));
}

test('144 data nodes all on a 1920×1080 screen in the normal view, beside the event log; tiles carry their memory number', { skip }, async () => {
  const simulator = { scenario: 'steady' as const, dataNodes: 144, mgmNodes: 2, apiNodes: 109, connectedApiNodes: 40, replicas: 2 };
  await withStackPage(suite, { simulator }, { width: 1920, height: 1080 }, async (page, stack) => {
    await page.waitForSelector('[data-testid="node-grid"][data-density="compact"] [data-testid="node-144"]', { timeout: 60_000 });
    await waitInPage(page, `document.querySelectorAll('[data-testid="node-grid"] .tile-mem').length >= 144`, 60_000);
    const log = await page.locator('[data-testid="event-log"]').boundingBox();
    assert.ok(log && log.width >= 400, 'the event log is still beside the grid');
    const ids = Array.from({ length: 144 }, (_, i) => i + 1);
    const boxes = await boxesInPage(page, ids.map((id) => `[data-testid="node-${id}"]`));
    const memory = await page.evaluate((list) => list.map((id) => document.querySelector(`[data-testid="node-${id}"] .tile-mem`)?.textContent ?? ''), ids);
    ids.forEach((id, i) => {
      const box = boxes[i];
      assert.ok(box, `node ${id} is rendered`);
      assert.ok(box.y >= 0 && box.y + box.height <= 1080 && box.x + box.width <= log.x, `node ${id} at ${JSON.stringify(box)} is not fully on screen`);
      assert.match(memory[i] ?? '', /^\d+%$/);
    });
    assert.deepEqual(await cutHeadings(page), []);
    const cut = await page.$$eval('.tile-status', (els) => els.filter((e) => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight).map((e) => e.textContent));
    assert.deepEqual(cut, [], 'no tile cuts its status word');
    // Squeezed once (a smaller window, an alert strip), the grid goes back to tiles with memory numbers when the
    // room is back, though tiles fit 1080p with less than the hysteresis' share to spare.
    await page.setViewportSize({ width: 1920, height: 900 });
    await page.waitForSelector('[data-testid="node-grid"][data-density="dense"]', { timeout: 10_000 });
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.waitForSelector('[data-testid="node-grid"][data-density="compact"] [data-testid="node-144"] .tile-mem', { timeout: 30_000 });

    // A 720p wall screen: dense tiles, where "NOT STARTED" and "SINGLE USER" were cut to "NOT START…".
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.waitForSelector('[data-testid="node-grid"][data-density="dense"]', { timeout: 30_000 });
    for (const id of [3, 5]) await stack.simulator.model.restartNode(id, { nostart: true });
    const api = (await stack.engine.handlers.getSnapshot({})).nodes.find((n) => n.type === 'API' && n.status === 'CONNECTED')?.nodeId;
    assert.ok(api !== undefined, 'a connected API node');
    await stack.simulator.model.enterSingleUser(api);
    await waitInPage(page, `document.querySelectorAll('[data-testid="node-grid"] [data-status="NOT_STARTED"]').length === 2 && document.querySelectorAll('[data-testid="node-grid"] [data-status="SINGLE USER MODE"]').length === 142`, 60_000);
    assert.equal(await page.getAttribute('[data-testid="node-grid"]', 'data-density'), 'dense');
    const words = await page.$$eval('[data-testid="node-grid"] .tile', (tiles) =>
      tiles.map((tile) => {
        const word = tile.querySelector('.tile-status') as HTMLElement;
        const bars = tile.querySelector('.tile-bars')?.getBoundingClientRect();
        const inside = !bars || bars.bottom <= tile.getBoundingClientRect().bottom;
        return { status: tile.getAttribute('data-status'), text: word.textContent, cut: word.scrollWidth > word.clientWidth || word.scrollHeight > word.clientHeight || !inside };
      }),
    );
    assert.deepEqual(words.filter((w) => w.cut), [], 'no dense tile cuts its status word or pushes its bars out');
    assert.deepEqual([...new Set(words.filter((w) => w.status === 'NOT_STARTED' || w.status === 'SINGLE USER MODE').map((w) => w.text))].sort(), ['NOT STARTED', 'SINGLE USER']);
    assert.deepEqual(await viewBarRows(page), [], 'the view bar is one row at 1280×720 with single user mode shown');
  });
});

test('4 data nodes at 1280×720 are cards, not tiles, and no heading is cut', { skip }, async () => {
  await withStackPage(suite, { simulator: { scenario: 'steady', dataNodes: 4, mgmNodes: 2 } }, { width: 1280, height: 720 }, async (page) => {
    await page.waitForSelector('[data-testid="node-grid"] [data-testid="node-5"]', { timeout: 30_000 });
    assert.equal(await page.getAttribute('[data-testid="node-grid"]', 'data-density'), 'comfortable');
    for (const id of [2, 3, 4, 5]) {
      const box = await page.locator(`[data-testid="node-${id}"]`).boundingBox();
      assert.ok(box && box.y + box.height <= 720, `card ${id} is on screen`);
    }
    assert.deepEqual(await cutHeadings(page), []);
  });
});

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
]) {
  test(`at ${viewport.width}×${viewport.height} a card before its node's first memory report keeps one-line rows; no fact row that never fills; Settings says each thing once`, { skip }, async () => {
    await withStackPage(suite, { actionsEnabled: true, simulator: { scenario: 'steady', dataNodes: 4, mgmNodes: 2, apiNodes: 6, connectedApiNodes: 2 } }, viewport, async (page, stack) => {
      const snapshot = (await (await fetch(new URL('/api/snapshot', stack.url))).json()) as ClusterSnapshot;
      const id = snapshot.nodes.find((n) => n.type === 'NDB')?.nodeId ?? 0;
      await page.waitForSelector(`[data-testid="node-grid"][data-density="comfortable"] [data-testid="node-${id}"] .mem-row`, { timeout: 30_000 });
      // Paused, the page shows what it holds; the node then stands for a node whose memory was never reported.
      await page.keyboard.press('p');
      await page.evaluate(`((id) => {
        const store = window.__ndbtopStore;
        const { shown } = store.getState();
        const nodes = new Map(shown.nodes);
        const node = nodes.get(id);
        nodes.set(id, { ...node, memory: { data: null, index: null }, configured: { ...node.configured, dataMemoryBytes: 2 * 1024 ** 3, indexMemoryBytes: 256 * 1024 ** 2 } });
        store.setState({ shown: { ...shown, nodes } });
      })(${id})`);
      await waitInPage(page, `document.querySelector('[data-testid="node-${id}"] .mem-row')?.textContent.includes('no report yet')`);
      const rows = await page.$$eval(`[data-testid="node-${id}"] .mem-row`, (els) => els.map((e) => ({ text: e.textContent, height: e.getBoundingClientRect().height, cut: e.scrollWidth > e.clientWidth + 1 })));
      for (const r of rows) assert.ok(r.height <= 24 && !r.cut, `"${r.text}" is ${r.height} px high${r.cut ? ' and cut' : ''}`);
      const empty = await page.$$eval('[data-testid="node-grid"] .facts dt', (dts) => dts.filter((dt) => dt.nextElementSibling?.textContent === '–').map((dt) => `${dt.closest('[data-node-item]')?.getAttribute('data-node-item')} ${dt.textContent}`));
      assert.deepEqual(empty, [], 'no fact row reads just "–"');
      await page.keyboard.press('5');
      await page.waitForSelector('main[data-view="settings"] li strong');
      const line = (await page.textContent('main[data-view="settings"] li')) ?? '';
      const words = line.replace(/Show|Stop watching/g, '').split(/[\s·]+/).filter(Boolean);
      assert.deepEqual(words, [...new Set(words)], `"${line}" repeats itself`);
    });
  });
}
