import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { METRICS } from '../../../electron/contract/index.js';
import { Engine } from '../../../electron/engine/engine.js';
import type { MetricValues } from '../../../electron/engine/facts/history/history.js';
import { NO_BROWSER, browserSuite, startStack, waitInPage } from '../harness.js';

const skip = NO_BROWSER ?? false;
const suite = browserSuite();
const HOUR_S = 3600;
const SPIKE = 50_000;

/** Lowest y (highest on screen) of the main chart's line of one colour: its tallest point. */
const top = (page: Page, colour: string): Promise<number> =>
  page.$eval(`[data-testid="throughput-chart"] path.recharts-curve[stroke="${colour}"]`, (el) => {
    const ys = [...(el.getAttribute('d') ?? '').matchAll(/[ML]\s*(-?[\d.]+)[ ,](-?[\d.]+)/g)].map((m) => Number(m[2]));
    return Math.min(...ys);
  });

test('over an hour the chart draws a min/max pair per few pixels, and a one-second abort spike half an hour ago still stands out', { skip }, async () => {
  const { dir, browser } = suite();
  const now = Date.now();
  // An hour of cluster totals recorded before the first poll: ~1,000/s, aborts near 0 but for one second.
  const stack = await startStack(dir, { historySeconds: HOUR_S, simulator: { scenario: 'steady', dataNodes: 2 } }, (engine) => {
    if (!(engine instanceof Engine)) throw new TypeError('an hour of history needs the in-process engine');
    for (const entry of engine.entries()) {
      for (let i = HOUR_S; i >= 1; i--) {
        const at = now - i * 1000;
        const cluster: MetricValues = {};
        for (const m of METRICS) cluster[m] = 1000 + 200 * Math.sin(at / 60_000);
        cluster.aborts = i === HOUR_S / 2 ? SPIKE : i % 3;
        entry.tracker.history.record(at, cluster, new Map());
      }
    }
  });
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  try {
    await page.goto(`${stack.url}#throughput`);
    await page.click('.window-picker button:text-is("1h")');
    await waitInPage(page, `document.querySelector('[data-testid="throughput-chart"]')?.dataset.window === '3600000' && document.querySelector('[data-testid="throughput-chart"] path.recharts-curve[stroke="#ff3355"]') !== null`);
    const box = await page.$eval('[data-testid="throughput-chart"]', (el) => ({ width: el.clientWidth, height: el.clientHeight, points: Number((el as HTMLElement).dataset.points) }));
    // 3,600 samples, decimated to what the width can show: at most a point per 2 px of the chart (a pair per 4).
    assert.ok(box.points > 100 && box.points <= box.width / 2, `${box.points} points drawn on ${box.width} px`);
    const drawn = await page.$eval('[data-testid="throughput-chart"] path.recharts-curve[stroke="#ff3355"]', (el) => (el.getAttribute('d') ?? '').match(/[ML]/g)?.length ?? 0);
    assert.ok(drawn <= box.width / 2, `the aborts path has ${drawn} points`);
    // The spike is 50 times the transactions: its line reaches far above theirs (without it, it lies below them).
    const aborts = await top(page, '#ff3355');
    const transactions = await top(page, '#4fc3f7');
    assert.ok(transactions - aborts > box.height / 2, `aborts peak at y ${aborts}, transactions at y ${transactions}, in ${box.height} px`);
  } finally {
    await page.close();
    await stack.close();
  }
});
