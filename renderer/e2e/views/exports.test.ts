import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { NO_BROWSER, browserSuite, startStack, waitInPage } from '../harness.js';
import { VIEWS, viewKey } from '../../src/store/ui-slice.js';

const skip = NO_BROWSER ?? false;

const suite = browserSuite();

/** Inputs whose placeholder is wider than the room inside them (measured with the input's own font). */
async function clippedPlaceholders(page: Page): Promise<string[]> {
  return page.$$eval('input[placeholder]', (inputs) => {
    const ctx = document.createElement('canvas').getContext('2d');
    if (!ctx) return ['no canvas'];
    return (inputs as HTMLInputElement[])
      .filter((input) => {
        const style = getComputedStyle(input);
        ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return input.offsetParent !== null && ctx.measureText(input.placeholder).width > room;
      })
      .map((input) => input.placeholder);
  });
}

async function download(page: Page, button: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(`text=${button}`)]);
  const stream = await file.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

test('time window and phase marks survive a reload and go into the CSV and JSON exports; units in headers, values rounded; no placeholder cut', { skip }, async () => {
  const { dir, browser } = suite();
  const stack = await startStack(dir, { simulator: { scenario: 'steady', dataNodes: 2 } });
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, acceptDownloads: true });
  try {
    await page.goto(`${stack.url}#throughput`);
    await waitInPage(page, `Number(document.querySelector('[data-testid="throughput-chart"]')?.dataset.points) > 2`);
    await page.click('.window-picker button:text-is("1m")');
    await page.fill('[aria-label="benchmark phase label"]', 'warm-up, 8 threads');
    await page.click('text=Mark phase');
    await page.reload();
    await waitInPage(page, `Number(document.querySelector('[data-testid="throughput-chart"]')?.dataset.points) > 2`);
    assert.equal(await page.getAttribute('.window-picker button:text-is("1m")', 'aria-pressed'), 'true', 'the window survives a reload');
    await waitInPage(page, `[...document.querySelectorAll('[data-testid="throughput-chart"] text')].some((t) => t.textContent === 'warm-up, 8 threads')`);
    // Samples after the mark exist by now, so some rows carry its label.
    await waitInPage(page, `window.__ndbtopStore.getState().shown.historyUntil > window.__ndbtopStore.getState().ui.phaseMarks[0].at + 1500`);

    const csv = (await download(page, 'Export CSV')).trim().split('\n');
    const header = csv[0]?.split(',') ?? [];
    assert.deepEqual(header.slice(0, 4), ['at (ms since epoch)', 'time (UTC)', 'phase', 'maintenance']);
    assert.ok(header.includes('cluster.transactions (/s)') && header.includes('cluster.dataMemory (%)'), header.join(' | '));
    const rows = csv.slice(1);
    const first = Number(rows[0]?.split(',')[0]);
    const last = Number(rows.at(-1)?.split(',')[0]);
    assert.ok(last - first <= 61_000, `the 1 m window, not all history: ${last - first} ms`);
    assert.ok(rows.some((r) => r.includes('"warm-up, 8 threads"')), 'the phase label, quoted');
    for (const r of rows) for (const cell of r.replace(/"[^"]*"/g, '').split(',').slice(4)) assert.match(cell, /^(-?\d+(\.\d)?)?$/, `value ${cell} not rounded to what was measured`);

    const json = JSON.parse(await download(page, 'Export JSON')) as { marks: Array<{ label: string }>; units: Record<string, string> };
    assert.deepEqual(json.marks.map((m) => m.label), ['warm-up, 8 threads']);
    assert.equal(json.units.reads, '/s');

    // Every view's inputs, once its lazily loaded chunk is in (the Runs view's tags field was cut).
    for (const [i, view] of VIEWS.entries()) {
      await page.keyboard.press(viewKey(i));
      await page.waitForSelector(`main[data-view="${view}"]`);
      await waitInPage(page, `!document.querySelector('main[data-view="${view}"] > p.muted')?.textContent?.startsWith('loading')`);
      assert.deepEqual(await clippedPlaceholders(page), [], `placeholders cut in the ${view} view`);
    }
  } finally {
    await page.close();
    await stack.close();
  }
});
