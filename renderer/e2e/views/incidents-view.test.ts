import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { NO_BROWSER, browserSuite, screenshot, valueInPage, waitInPage, withStackPage } from '../harness.js';

const skip = NO_BROWSER ?? false;
const suite = browserSuite();

test('Incidents view (key i): a starved node declared dead is one heartbeat incident, its badge and alert open it, its timeline shows the events, figures and restart phases', { skip }, async () => {
  await withStackPage(suite, { simulator: { scenario: 'heartbeat-failure', dataNodes: 4, speed: 20 } }, { width: 1280, height: 720 }, async (page) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // What crosses the wire: an incident's evidence, minute before or restart phases come only in answer to
    // `getIncident` for one the page opened, never with the list (the page holds summaries). Watched from a reload,
    // the socket of the first load having opened before this test could listen.
    const wire = watchIncidentWire(page);
    await page.reload();
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

    assert.ok(wire.lists() > 0, 'the page listed the incidents');
    assert.deepEqual(wire.detailed(), [], 'no incident in full before one is opened');
    assert.deepEqual(wire.leaks(), [], 'no evidence, minute before or phases outside an opened incident');

    await page.keyboard.press('i');
    await waitInPage(page, `document.querySelector('[data-testid="incidents-view"]')?.dataset.count >= 1`);
    assert.equal(await page.getAttribute('[data-testid="incident-row"]', 'data-kind'), 'heartbeat', 'newest first, of the right kind');
    const firstRow = await page.getAttribute('[data-testid="incident-row"]', 'data-incident-id');
    await page.waitForSelector(`[data-testid="incident-detail"][data-incident-id="${firstRow}"]`);
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
    // Opened: the ones clicked, and the newest while none was chosen (the view shows it, and at speed 20 the node can
    // fall again while the view is open).
    const opened = new Set([firstRow, own]);
    assert.ok(wire.detailed().some((d) => d.id === own), 'the opened incident was asked for in full');
    assert.deepEqual(wire.detailed().filter((d) => !opened.has(d.id) && d.id !== d.newestThen), [], 'only opened incidents are asked for in full');
    assert.deepEqual(wire.leaks(), [], 'no evidence, minute before or phases outside an opened incident');
    assert.deepEqual(errors, [], 'the page threw');
  });
});

/**
 * The page's WebSocket frames as they pass: how many incident lists it was sent, which incidents it asked for in
 * full (`getIncident`, with the newest of the last list it had then), and any frame but those answers that carried an incident's evidence (or a list that carried
 * its `before` or restart `phases`).
 */
function watchIncidentWire(page: Page): { lists: () => number; detailed: () => Array<{ id: string; newestThen: string | null }>; leaks: () => string[] } {
  const asked = new Map<number, { name: string; id?: string }>();
  const detailed: Array<{ id: string; newestThen: string | null }> = [];
  let newest: string | null = null;
  const leaks: string[] = [];
  let lists = 0;
  page.on('websocket', (ws) => {
    ws.on('framesent', ({ payload }) => {
      const f = JSON.parse(String(payload)) as { id: number; name: string; request?: { id?: string } };
      asked.set(f.id, { name: f.name, ...(f.request?.id === undefined ? {} : { id: f.request.id }) });
      if (f.name === 'getIncident' && f.request?.id) detailed.push({ id: f.request.id, newestThen: newest });
    });
    ws.on('framereceived', ({ payload }) => {
      const text = String(payload);
      const f = JSON.parse(text) as { id?: number; type: string };
      const request = f.id === undefined ? undefined : asked.get(f.id);
      const list = request?.name === 'listIncidents' || request?.name === 'getIncidents';
      if (list) {
        lists += 1;
        newest = (JSON.parse(text) as { response?: { incidents?: Array<{ id: string }> } }).response?.incidents?.[0]?.id ?? newest;
      }
      // An incident's evidence is a list of objects (a run report's is of sentences); a list of incidents carries none of the three.
      const leak = list ? /"(evidence|before|phases)":/.test(text) : request?.name !== 'getIncident' && /"evidence":\[\{/.test(text);
      if (leak) leaks.push(`${request?.name ?? f.type}: ${text.slice(0, 200)}`);
    });
  });
  return { lists: () => lists, detailed: () => detailed, leaks: () => leaks };
}
