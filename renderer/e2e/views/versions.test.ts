import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { VIEWS, viewKey } from '../../src/store/ui-slice.js';
import { NO_BROWSER, browserSuite, screenshot, valueInPage, waitInPage, withStackPage } from '../harness.js';

const skip = NO_BROWSER ?? false;
const suite = browserSuite();
const FAST = { intervals: { logspaces: 300, transporters: 300, transporterDetails: 300, diskWriteSpeed: 300, diskPageBuffer: 300, hostCpu: 300 }, loadEveryMs: 300, connectTimeoutMs: 2000, queryTimeoutMs: 2000 };
const THREADS_KEY = viewKey(VIEWS.indexOf('threads'));
const IO_KEY = viewKey(VIEWS.indexOf('io'));

const notes = (page: Page): Promise<Record<string, string>> =>
  page.evaluate(`Object.fromEntries([...document.querySelectorAll('[data-testid="release-notes"] li')].map((li) => [li.dataset.feature, li.textContent]))`) as Promise<Record<string, string>>;

test('NDB 9.x, the richer release: host CPU beside the threads, send buffers in the Redo view, nothing said missing; screenshots at 1280×720 and 1920×1080', { skip }, async () => {
  // Under flexAsynch the LDM threads saturate while the host's CPUs are far from it: what the host figure adds.
  await withStackPage(suite, { simulator: { scenario: 'flexasynch', dataNodes: 4, version: '9.1.0' }, sqlWatch: FAST }, { width: 1280, height: 720 }, async (page) => {
    await page.waitForSelector('[data-testid^="node-"][data-status="STARTED"]', { timeout: 30_000 });
    await page.keyboard.press(THREADS_KEY);
    // Each data node's line leads with its host's CPUs (cpudata), then its threads by kind.
    const strip = await valueInPage<string>(page, `(() => { const items = [...document.querySelectorAll('[data-testid="thread-kind-strip"] li')]; return items.length === 4 && items.every((li) => /^node \\d+ host \\d+ % of \\d+ CPUs, /.test(li.textContent)) && items.map((li) => li.textContent).join('\\n'); })()`);
    assert.match(strip, /LDM \d+ %/);
    assert.match((await page.textContent('[data-testid="thread-kind-strip-count"]')) ?? '', /beside the host CPUs/);
    assert.deepEqual(await notes(page), {});
    await waitInPage(page, `document.querySelector('[data-testid="thread-top-ten"] li') !== null`);
    // A few seconds of columns in the heatmap for the picture.
    await page.waitForTimeout(6000);
    await screenshot(page, 'versions-threads-9x-1280');
    await page.keyboard.press(IO_KEY);
    await waitInPage(page, `[...document.querySelectorAll('[data-testid="io-send-buffer"]')].length === 4 && [...document.querySelectorAll('[data-testid="io-send-buffer"]')].every((c) => /^\\d+ %/.test(c.textContent))`);
    await waitInPage(page, `[...document.querySelectorAll('[data-testid="io-redo"]')].every((c) => c.dataset.percent !== '')`);
    await waitInPage(page, `document.querySelectorAll('[data-testid="io-redo-trend"]').length === 4 && /B\\/s of/.test(document.querySelector('[data-testid="io-redo-speed"]')?.textContent ?? '')`);
    assert.deepEqual(await notes(page), {});
    await screenshot(page, 'versions-redo-9x-1280');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await screenshot(page, 'versions-redo-9x-1920');
    await page.keyboard.press(THREADS_KEY);
    await waitInPage(page, `document.querySelector('[data-testid="thread-kind-strip"] li') !== null`);
    await screenshot(page, 'versions-threads-9x-1920');
  });
});

test('NDB 7.6, the poorer release: watched without a false error; the Threads and Redo views say what it lacks and why; screenshots', { skip }, async () => {
  await withStackPage(suite, { simulator: { scenario: 'steady', dataNodes: 4, version: '7.6.36' }, sqlWatch: FAST }, { width: 1280, height: 720 }, async (page) => {
    await page.waitForSelector('[data-testid^="node-"][data-status="STARTED"]', { timeout: 30_000 });
    await page.keyboard.press(THREADS_KEY);
    await waitInPage(page, `document.querySelectorAll('[data-testid="thread-kind-strip"] li').length === 4`);
    assert.deepEqual(await notes(page), { 'host-cpu': 'host CPU: needs ndbinfo.cpudata (NDB 8.0.23 or later, Linux only); this SQL node runs NDB 7.6.36.' });
    assert.equal(await page.evaluate(`[...document.querySelectorAll('[data-testid="thread-kind-strip"] li')].some((li) => / host /.test(li.textContent))`), false);
    await screenshot(page, 'versions-threads-76-1280');
    await page.keyboard.press(IO_KEY);
    await waitInPage(page, `[...document.querySelectorAll('[data-testid="io-redo"]')].length === 4 && [...document.querySelectorAll('[data-testid="io-redo"]')].every((c) => c.dataset.percent !== '')`);
    assert.deepEqual(await notes(page), { 'send-buffers': 'send buffers: needs ndbinfo.transporter_details (NDB 8.3.0 or later); this SQL node runs NDB 7.6.36.' });
    assert.ok((await page.$$eval('[data-testid="io-send-buffer"]', (cells) => cells.map((c) => c.textContent))).every((t) => t === '–'));
    // No false error: the header is live (simulated), no alert, no SQL source complaint.
    assert.equal(await page.getAttribute('[data-testid="connection-state"]', 'data-state'), 'simulated');
    assert.equal(await page.evaluate(`document.querySelectorAll('[data-testid^="alert"][data-kind]').length`), 0);
    assert.equal(await page.evaluate(`document.querySelector('[data-testid="io-source"]')`), null);
    await screenshot(page, 'versions-redo-76-1280');
  });
});
