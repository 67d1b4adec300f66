import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { NO_BROWSER, browserSuite, startStack, waitInPage } from '../harness.js';

const skip = NO_BROWSER ?? false;

const suite = browserSuite();

const fontSize = (page: Page, selector: string): Promise<number> => page.$eval(selector, (el) => parseFloat(getComputedStyle(el).fontSize));

/**
 * Every frame from the page's start: the transactions trend's text and the headline's height, so a test can see
 * whether the page below moved when the trend ("▶ steady") appeared, some seconds after the first figures.
 */
const RECORD_HEADLINE = `window.__headline = [];
(function frame() {
  const stat = document.querySelector('[data-testid="headline-transactions"]');
  if (stat && stat.dataset.value !== '') window.__headline.push([stat.querySelector('.headline-trend').textContent, stat.closest('.headline').getBoundingClientRect().height]);
  if (!window.__headlineDone) requestAnimationFrame(frame);
})();`;

test('the headline shows the cluster rates in big numbers on the Nodes view and bigger in dashboard mode', { skip }, async () => {
  const { dir, browser } = suite();
  const stack = await startStack(dir, { simulator: { scenario: 'benchmark', dataNodes: 4 } });
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  try {
    await page.addInitScript(RECORD_HEADLINE);
    await page.goto(stack.url);
    for (const metric of ['transactions', 'reads', 'writes', 'aborts']) {
      // What the headline says is what the store holds for the cluster, formatted.
      await waitInPage(page, `(() => { const el = document.querySelector('[data-testid="headline-${metric}"]'); const r = window.__ndbtopStore.getState().shown.rates; return el && r && Number(el.dataset.value) === r.${metric}; })()`);
      assert.ok(['up', 'down', 'steady', 'unknown'].includes((await page.getAttribute(`[data-testid="headline-${metric}"]`, 'data-trend')) ?? ''));
    }
    // Issue 23 item 16: the trend appearing a few seconds after the figures does not move the page below.
    await waitInPage(page, `[...document.querySelectorAll('.headline-trend')].every((t) => t.textContent !== '')`, 30_000);
    const frames = (await page.evaluate('window.__headlineDone = true, window.__headline')) as Array<[string, number]>;
    assert.ok(frames.some(([trend]) => trend === '') && frames.some(([trend]) => trend !== ''), `frames before and after the trend appeared: ${JSON.stringify(frames.slice(0, 3))}`);
    assert.deepEqual([...new Set(frames.map(([, height]) => height))], [frames[0]?.[1]], 'the headline kept its height as the trend appeared');
    const normal = await fontSize(page, '[data-testid="headline-transactions"] .headline-value');
    assert.ok(normal >= 36, `${normal} px is not readable across a room`);
    await page.keyboard.press('f');
    await page.waitForSelector('.app.dashboard [data-testid="headline-transactions"]');
    assert.ok((await fontSize(page, '[data-testid="headline-transactions"] .headline-value')) > normal);
  } finally {
    await page.close();
    await stack.close();
  }
});

/** Drawn line paths of one colour in the main chart. */
const lines = (page: Page, colour: string): Promise<number> => page.$$eval(`[data-testid="throughput-chart"] path.recharts-curve[stroke="${colour}"]`, (els) => els.length);

test('the chart shows transactions and commits both when they coincide, its legend carries current values and toggles series, and it is taller on a big screen', { skip }, async () => {
  const { dir, browser } = suite();
  const stack = await startStack(dir, { simulator: { scenario: 'steady', dataNodes: 2 } });
  const heights: number[] = [];
  try {
    for (const viewport of [
      { width: 1920, height: 1080 },
      { width: 1280, height: 720 },
    ]) {
      const page = await browser.newPage({ viewport });
      try {
        await page.goto(`${stack.url}#throughput`);
        await waitInPage(page, `Number(document.querySelector('[data-testid="throughput-chart"]')?.dataset.points) > 1`);
        heights.push((await page.locator('[data-testid="throughput-chart"]').boundingBox())?.height ?? 0);
        // Seconds after the start, the 5 m chart spans the minute there is, not five minutes with a sliver at the end.
        const span = await page.$eval('[data-testid="throughput-chart"]', (el) => Number((el as HTMLElement).dataset.until) - Number((el as HTMLElement).dataset.from));
        assert.ok(span >= 60_000 && span < 300_000, `axis spans ${span} ms`);
        if (viewport.width < 1920) continue;
        await waitInPage(page, `Number(document.querySelector('[data-testid="legend-transactions"]')?.dataset.current) > 0`);
        assert.match((await page.textContent('[data-testid="legend-commits"] .legend-value')) ?? '', /^[\d.]+[kM]?\/s$/);
        // Both drawn, the commits line dashed so the solid transactions line shows through its gaps.
        assert.equal(await lines(page, '#4fc3f7'), 1);
        assert.equal(await lines(page, '#81c784'), 1);
        assert.ok(await page.$('[data-testid="throughput-chart"] path.recharts-curve[stroke="#81c784"][stroke-dasharray]'));
        await page.click('[data-testid="legend-commits"]');
        await waitInPage(page, `document.querySelector('[data-testid="legend-commits"]').getAttribute('aria-pressed') === 'false'`);
        await waitInPage(page, `document.querySelectorAll('[data-testid="throughput-chart"] path.recharts-curve[stroke="#81c784"]').length === 0`);
        assert.equal(await lines(page, '#4fc3f7'), 1, 'transactions still drawn');
        await page.click('[data-testid="legend-commits"]');
        await waitInPage(page, `document.querySelectorAll('[data-testid="throughput-chart"] path.recharts-curve[stroke="#81c784"]').length === 1`);
      } finally {
        await page.close();
      }
    }
  } finally {
    await stack.close();
  }
  const [big = 0, small = 0] = heights;
  assert.ok(big > small && big >= 480, `chart ${big} px high at 1080p, ${small} px at 720p`);
});

/** Pairs of headline parts (numbers, labels, trends) of different rates whose boxes overlap, and parts cut short. */
const headlineCollisions = (page: Page): Promise<string[]> =>
  page.$$eval('.headline-stat', (stats) => {
    const parts = stats.flatMap((stat, i) => [...stat.children].map((el) => ({ i, el: el as HTMLElement, r: el.getBoundingClientRect() })));
    const out: string[] = [];
    for (const a of parts) {
      if (a.el.scrollWidth > a.el.clientWidth + 1) out.push(`cut: ${a.el.textContent}`);
      for (const b of parts) {
        if (a.i >= b.i) continue;
        if (a.r.left < b.r.right && b.r.left < a.r.right && a.r.top < b.r.bottom && b.r.top < a.r.bottom) out.push(`${a.el.textContent} over ${b.el.textContent}`);
      }
    }
    return out;
  });

test('at 1280×720 the headline numbers never run over each other and stay on one row, in the Nodes view or in dashboard mode, and the header keeps the sample age whole', { skip }, async () => {
  const { dir, browser } = suite();
  const stack = await startStack(dir, { simulator: { scenario: 'benchmark', dataNodes: 8, speed: 4 } });
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  try {
    await page.goto(stack.url);
    // Six-character numbers ("142.5k") on every rate but aborts: the widest the headline shows; the benchmark
    // scenario gets there within a minute.
    await waitInPage(page, `Number(document.querySelector('[data-testid="headline-transactions"]')?.dataset.value) > 100000`, 90_000);
    for (const mode of ['nodes', 'dashboard']) {
      if (mode === 'dashboard') {
        await page.keyboard.press('f');
        await page.waitForSelector('.app.dashboard .headline');
      }
      await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
      assert.deepEqual(await headlineCollisions(page), [], `${mode}: headline parts collide`);
      const tops = await page.$$eval('.headline-stat', (stats) => stats.map((s) => Math.round(s.getBoundingClientRect().top)));
      assert.equal(new Set(tops).size, 1, `${mode}: the four rates take more than one row (tops ${tops.join(', ')})`);
      const age = await page.$eval('[data-testid="sample-age"]', (el) => ({ text: el.textContent, cut: el.scrollWidth > el.clientWidth + 1 }));
      assert.equal(age.cut, false, `${mode}: the sample age is cut ("${age.text}")`);
    }
  } finally {
    await page.close();
    await stack.close();
  }
});

test('each data node has a small multiple on canvas: drawn, its newest value in the caption and accessible text, the sample under the pointer on hover', { skip }, async () => {
  const { dir, browser } = suite();
  const stack = await startStack(dir, { simulator: { scenario: 'benchmark', dataNodes: 4 } });
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  try {
    await page.goto(`${stack.url}#throughput`);
    const dataNodes = (await stack.engine.handlers.getSnapshot({})).nodes.filter((n) => n.type === 'NDB').map((n) => n.nodeId);
    const canvas = (id: number) => `[data-testid="small-multiple-${id}"] canvas`;
    for (const id of dataNodes) await waitInPage(page, `Number(document.querySelector('${canvas(id)}')?.dataset.points) > 2 && document.querySelector('${canvas(id)}').dataset.last !== ''`);
    // The page's newest values first, then the engine's history: a sample arriving between the two is then in the
    // history too (the other way round, on a slow machine, the page could already show a sample the history lacks).
    const lasts = new Map<number, number>();
    for (const id of dataNodes) lasts.set(id, Number(await page.getAttribute(canvas(id), 'data-last')));
    const history = await stack.engine.handlers.getHistory({ metrics: ['transactions'], nodeIds: dataNodes });
    for (const id of dataNodes) {
      const last = lasts.get(id) ?? NaN;
      // A value the engine recorded for this node (decimation keeps real samples), not an interpolation.
      const recorded = history.series.find((s) => s.nodeId === id)?.values ?? [];
      assert.ok(recorded.includes(last), `node ${id}: ${last} is one of its samples`);
      assert.match((await page.getAttribute(canvas(id), 'aria-label')) ?? '', new RegExp(`^node ${id} transactions per second over the last 5m: now [\\d.]+[kM]?, lowest .*, highest `));
      assert.match((await page.textContent(`[data-testid="small-multiple-${id}"] figcaption strong`)) ?? '', /^[\d.]+[kM]?$/);
      // The line is on the canvas: some pixels are not transparent.
      const inked = (await page.$eval(canvas(id), (el) => {
        const c = el as HTMLCanvasElement;
        const px = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data ?? new Uint8ClampedArray();
        let n = 0;
        for (let i = 3; i < px.length; i += 4) if ((px[i] ?? 0) > 0) n++;
        return n;
      })) as number;
      assert.ok(inked > 50, `node ${id}: ${inked} pixels drawn`);
    }
    const first = dataNodes[0] ?? 0;
    const box = await page.locator(canvas(first)).boundingBox();
    assert.ok(box);
    await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
    await page.waitForSelector(`[data-testid="small-multiple-${first}"] figcaption:has-text("at ")`);
    assert.match((await page.textContent(`[data-testid="small-multiple-${first}"] figcaption`)) ?? '', new RegExp(`^node ${first} at \\d\\d:\\d\\d:\\d\\d [\\d.]+[kM]? tx/s$`));
    await page.mouse.move(0, 0);
    await page.waitForSelector(`[data-testid="small-multiple-${first}"] figcaption:not(:has-text("at "))`);
  } finally {
    await page.close();
    await stack.close();
  }
});
