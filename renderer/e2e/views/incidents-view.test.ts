import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NO_BROWSER, browserSuite, screenshot, valueInPage, waitInPage, withStackPage } from '../harness.js';

const skip = NO_BROWSER ?? false;
const suite = browserSuite();

test('Incidents view (key i): a starved node declared dead is one heartbeat incident, its badge and alert open it, its timeline shows the events, figures and restart phases', { skip }, async () => {
  await withStackPage(suite, { simulator: { scenario: 'heartbeat-failure', dataNodes: 4, speed: 20 } }, { width: 1280, height: 720 }, async (page) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.waitForSelector('[data-testid^="node-"][data-status="STARTED"]', { timeout: 30_000 });
    // The badge on the fallen node's card, while its incident is recent.
    const badge = await valueInPage<{ node: string; id: string }>(
      page,
      `(() => { const b = document.querySelector('[data-testid^="incident-badge-"]'); return b && { node: b.dataset.testid.slice('incident-badge-'.length), id: b.dataset.incidentId }; })()`,
      120_000,
    );
    assert.match(await page.textContent(`[data-testid="incident-badge-${badge.node}"]`) ?? '', /incident: heartbeat/);
    // The node-down alert links the same incident.
    await page.waitForSelector(`[data-testid="alert"][data-kind="node-down"][data-node="${badge.node}"] [data-testid="alert-incident"]`, { timeout: 30_000 });

    await page.keyboard.press('i');
    await waitInPage(page, `document.querySelector('[data-testid="incidents-view"]')?.dataset.count >= 1`);
    assert.equal(await page.getAttribute('[data-testid="incident-row"]', 'data-kind'), 'heartbeat', 'newest first, of the right kind');
    assert.equal(await page.getAttribute('[data-testid="incident-cause"]', 'data-kind'), 'heartbeat');
    const timeline = (await page.textContent('[data-testid="incident-timeline"]')) ?? '';
    assert.match(timeline, /missed \d heartbeats from node \d/);
    assert.match(timeline, /declared dead \(missed heartbeats\)/);
    assert.match(timeline, /ndbtop saw node \d+ leave STARTED/);
    // The SQL source's figures of the minute before: the starved main thread.
    await waitInPage(page, `/main thread CPU/.test(document.querySelector('[data-testid="incident-figures"]')?.textContent ?? '')`);
    // Once back, the restart's phases follow the fall on the same axis.
    await waitInPage(page, `/back after/.test(document.querySelector('[data-testid="incident-restart"]')?.textContent ?? '')`, 90_000);
    assert.match(timeline + ((await page.textContent('[data-testid="incident-timeline"]')) ?? ''), /start phase 1: /);
    assert.ok(await page.isVisible('[data-testid="incident-strip"] rect'), 'phases drawn on the strip');
    await screenshot(page, 'incidents-1280');

    // The badge opens its own incident from the Nodes view: the node's newest (at speed 20 it may have fallen again
    // since the badge was first seen).
    await page.keyboard.press('1');
    const own = await page.getAttribute(`[data-testid="incident-badge-${badge.node}"]`, 'data-incident-id');
    await page.click(`[data-testid="incident-badge-${badge.node}"]`);
    await waitInPage(page, `document.querySelector('[data-testid="incident-detail"]')?.dataset.incidentId === ${JSON.stringify(own)}`);
    assert.deepEqual(errors, [], 'the page threw');
  });
});
