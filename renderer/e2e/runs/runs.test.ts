import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { Run, RunReport } from '../../../electron/contract/index.js';
import { waitFor } from '../../../electron/engine/test/helpers.js';
import { httpRunMarker } from '../../../electron/serve/runs-client.js';
import type { RunMarker } from '../../../native-mgm/sim/index.js';
import { NO_BROWSER, browserSuite, screenshot, startStack, waitInPage, type Stack } from '../harness.js';

const skip = NO_BROWSER ?? false;
if (NO_BROWSER) console.log(`# renderer e2e skipped: ${NO_BROWSER}`);
const chromium = browserSuite();

const rows = (state: string): string => `document.querySelectorAll('[data-testid="run-row"][data-state="${state}"]').length`;

async function engineRun(stack: Stack, id: string): Promise<Omit<RunReport, 'series'>> {
  return (await (await fetch(new URL(`/api/runs/${id}`, stack.url))).json()) as Omit<RunReport, 'series'>;
}

/**
 * Ticks A then B (A is the baseline): the comparison is aligned at their measured phase by default (the first
 * phase they share after warm-up), not at their start, whose warm-up would be averaged in.
 */
async function compareAtMeasure(page: Page, a: Run, b: Run): Promise<void> {
  for (const run of [a, b]) await page.check(`[data-testid="run-row"][data-run-id="${run.id}"] input[type="checkbox"]`);
  await waitInPage(page, `document.querySelector('[data-testid="run-align"]')?.value === 'measure'`);
  await waitInPage(page, `(() => { const row = document.querySelector('[data-testid="ratio-row"]'); return row && document.querySelector('[data-testid="run-comparison"]')?.dataset.align === 'measure' && row.querySelector('[data-figure="transactions"]')?.dataset.ratio !== ''; })()`);
}

test('Runs view: a scripted A/B run with phases, its summary, the comparison in the expected band, and the one-key run', { skip }, async () => {
  const stack = await startStack(chromium().dir, { simulator: { scenario: 'compression-ab', dataNodes: 2, speed: 4, waitForMarker: true } });
  const page = await chromium().browser.newPage({ viewport: { width: 1600, height: 1200 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    // The benchmark script: the simulator's driver marks its two runs over HTTP, then lets go.
    const http = httpRunMarker({ url: stack.url });
    let stops = 0;
    const marker: RunMarker = {
      start: http.start,
      phase: http.phase,
      stop: async () => {
        await http.stop();
        if (++stops === 2) stack.simulator.marks.attach(null);
      },
    };
    // A benchmark script starts once the monitor sees the cluster's statistics.
    await waitFor('the first statistics reports', async () => ((await (await fetch(new URL('/api/snapshot', stack.url))).json()) as { rates: unknown }).rates ?? undefined, 30_000);
    stack.simulator.marks.attach(marker);
    await page.goto(`${stack.url}#/runs`);
    await page.waitForSelector('[data-testid="run-controls"]', { timeout: 30_000 });
    await waitInPage(page, `${rows('done')} === 2`, 90_000);

    const runs = (await (await fetch(new URL('/api/snapshot', stack.url))).json()) as { runs: Run[] };
    const [a, b] = runs.runs;
    assert.ok(a && b);
    assert.deepEqual([a.name, b.name], ['compress=off', 'compress=on']);
    assert.deepEqual(b.phases.map((p) => p.name), ['warm-up', 'measure']);

    // The summary shows the newest run, with the engine's own figures and both phases.
    await waitInPage(page, `document.querySelector('[data-testid="run-summary"]')?.dataset.runId === '${b.id}'`);
    const live = await engineRun(stack, b.id);
    const mean = Number(await page.getAttribute('[data-testid="summary-transactions"]', 'data-mean'));
    assert.ok(Math.abs(mean - (live.summary.transactions?.mean ?? NaN)) < 1e-6 * mean, `page ${mean}, engine ${live.summary.transactions?.mean}`);
    assert.deepEqual(await page.$$eval('[data-testid="phase-row"]', (els) => els.map((e) => (e as HTMLElement).dataset.phase)), ['warm-up', 'measure']);
    // The run's bottleneck in one line, and each phase's in its row: the engine's verdicts.
    assert.equal(await page.getAttribute('[data-testid="run-bottleneck"]', 'data-kind'), live.summary.bottleneck.kind);
    // With the evidence it rests on, shown as the report and the API list it.
    assert.ok(live.summary.bottleneck.evidence.length > 0, 'the engine gives evidence');
    assert.deepEqual(await page.$$eval('[data-testid="run-bottleneck-evidence"] li', (els) => els.map((e) => e.textContent)), live.summary.bottleneck.evidence);
    assert.deepEqual(await page.$$eval('[data-testid="phase-bottleneck"]', (els) => els.map((e) => (e as HTMLElement).dataset.kind)), live.phases.map((p) => p.summary.bottleneck.kind));

    await compareAtMeasure(page, a, b);
    const ratio = Number(await page.getAttribute('[data-testid="ratio-row"] [data-figure="transactions"]', 'data-ratio'));
    assert.ok(ratio >= 0.7 && ratio <= 0.75, `B/A ${ratio}: compression costs 25–30 %`);
    assert.match((await page.textContent('[data-testid="ratio-row"] [data-figure="transactions"]')) ?? '', /^−(2[5-9]|30) % \(p5\.\.p95 −\d+ %\.\.−\d+ %\)$/);
    assert.ok(Number(await page.getAttribute('[data-testid="run-overlay"]', 'data-points')) > 10, 'the overlay has both runs');
    // Issue 23 item 16: the table follows the comparison chart, no ~200 px of empty box between them.
    const [drawn, table] = [await page.locator('[data-testid="run-overlay"] .recharts-wrapper').boundingBox(), await page.locator('[data-testid="ratio-table"]').boundingBox()];
    assert.ok(drawn && table && table.y - (drawn.y + drawn.height) >= 0 && table.y - (drawn.y + drawn.height) <= 32, `chart ends at ${drawn && drawn.y + drawn.height}, table starts at ${table?.y}`);
    await screenshot(page, 'runs-dark');

    // The same view in the light theme, through the settings the operator uses.
    // Escape leaves the select that has the focus, so the keys reach the app.
    await page.keyboard.press('Escape');
    await page.keyboard.press('5');
    await page.selectOption('[data-testid="theme"]', 'light');
    await waitInPage(page, `document.documentElement.dataset.theme === 'light'`);
    await page.keyboard.press('Escape');
    await page.keyboard.press('8');
    await compareAtMeasure(page, a, b);
    await screenshot(page, 'runs-light');

    // One key: r starts a run, m marks its next phase, r stops it.
    await page.keyboard.press('Escape');
    await page.keyboard.press('r');
    await waitInPage(page, `${rows('running')} === 1`);
    await page.keyboard.press('m');
    await waitInPage(page, `document.querySelector('[data-testid="run-running"]')?.textContent.includes('phase 1')`);
    await page.keyboard.press('r');
    await waitInPage(page, `${rows('done')} === 3`);
    const after = (await (await fetch(new URL('/api/snapshot', stack.url))).json()) as { runs: Run[] };
    const keyed = after.runs.at(-1);
    assert.deepEqual(keyed?.phases.map((p) => p.name), ['phase 1']);
    assert.ok(keyed?.end !== null);

    // Scale-out: runs tagged as one and as two data nodes; the plot shows the engine's points and linear line.
    stack.simulator.model.setLoad('steady');
    const tagged: Run[] = [];
    const tick = (run: Run, on: boolean) => page.setChecked(`[data-testid="run-row"][data-run-id="${run.id}"] input[type="checkbox"]`, on);
    for (const run of [a, b]) await tick(run, false);
    for (const nodes of ['1', '2']) {
      const post = (path: string, body: object) => fetch(new URL(`/api/runs${path}`, stack.url), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      const run = (await (await post('', { name: `steady on ${nodes}`, tags: { nodes } })).json()) as Run;
      if (nodes === '1') {
        // Issue 23 item 14: a baseline still running is said on the page, every ratio against it being provisional.
        await waitInPage(page, `${rows('running')} === 1`);
        for (const r of [run, a]) await tick(r, true);
        assert.match((await page.locator('[data-testid="baseline-running"]').textContent({ timeout: 15_000 })) ?? '', /The baseline steady on 1 is still running: its figures, and every ratio against it, will change/);
        for (const r of [run, a]) await tick(r, false);
      }
      await waitFor(`three samples of ${run.name}`, async () => ((await engineRun(stack, run.id)).summary.transactions?.samples ?? 0) >= 3, 60_000);
      tagged.push((await (await post(`/${run.id}/stop`, {})).json()) as Run);
    }
    await waitInPage(page, `${rows('done')} === 5`);
    for (const run of tagged) await tick(run, true);
    await waitInPage(page, `document.querySelector('[data-testid="scale-out"]')?.dataset.points === '2'`);
    const engineScale = (await stack.engine.handlers.getRunReports({ runIds: tagged.map((r) => r.id), figure: 'transactions' })).comparison?.scaleOut;
    assert.deepEqual(engineScale?.map((p) => p.dataNodes), [1, 2]);
    const efficiency = Number(await page.getAttribute('[data-testid="scale-out"]', 'data-efficiency'));
    assert.ok(Math.abs(efficiency - (engineScale?.[1]?.efficiency ?? NaN)) < 1e-9, `page ${efficiency}, engine ${engineScale?.[1]?.efficiency}`);
    await screenshot(page, 'runs-scale-out');
    assert.deepEqual(errors, [], 'the page threw');
  } finally {
    await page.close();
    await stack.close();
  }
});

test('a collapse is an alert and a marker on the throughput chart, next to the marks of the run it happened in', { skip }, async () => {
  const stack = await startStack(chromium().dir, { simulator: { scenario: 'collapse', dataNodes: 2, speed: 8, waitForMarker: true }, collapse: { dropShare: 0.5, windowMs: 4000 } });
  const page = await chromium().browser.newPage({ viewport: { width: 1600, height: 1000 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    stack.simulator.marks.attach(httpRunMarker({ url: stack.url }));
    await page.goto(`${stack.url}#/throughput`);
    await page.waitForSelector('[data-testid="throughput-chart"]', { timeout: 30_000 });
    await waitInPage(page, `Number(document.querySelector('[data-testid="throughput-chart"]')?.dataset.collapses) === 1`, 90_000);
    await waitInPage(page, `[...document.querySelectorAll('[data-testid="throughput-chart"] text')].some((t) => t.textContent === 'collapse')`);
    await waitInPage(page, `[...document.querySelectorAll('[data-testid="throughput-chart"] text')].some((t) => t.textContent?.startsWith('▶ concurrency sweep'))`);
    const alerts = ((await (await fetch(new URL('/api/snapshot', stack.url))).json()) as { alerts: Array<{ kind: string; message: string }> }).alerts;
    assert.equal(alerts.filter((a) => a.kind === 'throughput-collapse').length, 1);
    await screenshot(page, 'throughput-collapse');
    // The Runs view names where the limit was: not in the data nodes, whose threads idled along.
    await page.goto(`${stack.url}#/runs`);
    await page.waitForSelector('[data-testid="run-bottleneck"][data-kind="outside-data-nodes"]', { timeout: 30_000 });
    assert.match((await page.textContent('[data-testid="run-bottleneck"]')) ?? '', /^Bottleneck outside-data-nodes: Data-node threads stayed under \d+ % busy while throughput was flat/);
    assert.deepEqual(errors, [], 'the page threw');
  } finally {
    await page.close();
    await stack.close();
  }
});
