/**
 * Every view at 1920×1080 and 1280×720, dark and light, for a 4-node and a 144-node simulated cluster, into one
 * folder (default: a fresh temp folder; or the first argument): what a reviewer looks at before calling a layout done;
 * then issue 23's states: those of `screenshot-states.ts` (lost sources, a TLS refusal, a 48-node rolling restart at
 * every window, a maintenance window, the 144-node benchmark's ramp-down) and a recording over 1 MiB being imported in
 * the Runs view (`import-screenshots.ts`). `--states` shoots only the states, `--state NAME` (repeatable) only those
 * named (rolling, lost, tls, maintenance, rampdown, import), `--import` is `--state import`.
 *   node --import tsx scripts/screenshots/screenshots.ts [outDir] [--states] [--state NAME] [--import]
 */
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { buildRenderer, launchChromium, startStack, waitInPage } from '../../renderer/e2e/harness.js';
import { STATE_NAMES, shootStates } from './screenshot-states.js';
import { importScreens } from './import-screenshots.js';
import { VIEWS, viewKey } from '../../renderer/src/store/ui-slice.js';

/** A benchmark ramping up on the small cluster; the big one in a rolling restart, so restart progress and alerts show too. */
const CLUSTERS = {
  '4': { scenario: 'benchmark', dataNodes: 4, apiNodes: 6, connectedApiNodes: 2 },
  '144': { scenario: 'rolling-restart', dataNodes: 144, mgmNodes: 2, apiNodes: 109, connectedApiNodes: 40, replicas: 2 },
} as const;
const SIZES = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
] as const;
const THEMES = ['dark', 'light'] as const;

async function shoot(page: Page, outDir: string, name: string): Promise<void> {
  // Two frames, so whatever the last key press changed has been laid out and painted.
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  await page.screenshot({ path: join(outDir, `${name}.png`) });
}

/** Issue 23's states: the import is one of them, shot by its own script. */
const STATES: readonly string[] = [...STATE_NAMES, 'import'];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const named = [...args.flatMap((a, i) => (args[i - 1] === '--state' ? [a] : [])), ...(args.includes('--import') ? ['import'] : [])];
  const unknown = named.filter((n) => !STATES.includes(n));
  if (unknown.length > 0) throw new Error(`no state ${unknown.join(', ')}: one of ${STATES.join(', ')}`);
  const statesOnly = args.includes('--states') || named.length > 0;
  const wanted = named.length > 0 ? named : STATES;
  const states = STATE_NAMES.filter((n) => wanted.includes(n));
  const outDir = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--state') ?? join(tmpdir(), `ndbtop-screens-${Date.now()}`);
  await mkdir(outDir, { recursive: true });
  const built = await buildRenderer();
  const browser = await launchChromium();
  try {
    for (const [size, simulator] of statesOnly ? [] : Object.entries(CLUSTERS)) {
      const stack = await startStack(built.dir, { simulator: { ...simulator } });
      try {
        for (const viewport of SIZES) {
          for (const theme of THEMES) {
            const page = await browser.newPage({ viewport, colorScheme: theme });
            await page.goto(stack.url);
            await page.waitForSelector('[data-testid^="node-"][data-status]', { timeout: 60_000 });
            // Let a few seconds of rates arrive so charts and the headline have something to show.
            await waitInPage(page, `Number(window.__ndbtopStore.getState().shown.historyVersion) > 4`, 60_000);
            const prefix = `${size}nodes-${viewport.width}x${viewport.height}-${theme}`;
            for (const [i, view] of VIEWS.entries()) {
              await page.keyboard.press(viewKey(i));
              await page.waitForSelector(`main[data-view="${view}"]`);
              // A lazily loaded view shows its Suspense fallback until its chunk is in, and React may show it again
              // for what the view loads next: shoot the view once no fallback has been seen for half a second.
              await waitInPage(
                page,
                `(() => { const loading = document.querySelector('main[data-view="${view}"] > p.muted')?.textContent?.startsWith('loading'); const w = (window.__shotQuiet ??= {}); if (loading || w.view !== '${view}') { w.view = '${view}'; w.since = loading ? Infinity : performance.now(); return false; } if (w.since === Infinity) w.since = performance.now(); return performance.now() - w.since >= 500; })()`,
                30_000,
              );
              // The small multiples mount after the plot has painted and draw a few a frame: shoot them drawn.
              if (view === 'throughput') await waitInPage(page, `[...document.querySelectorAll('[data-testid^="small-multiple-"] canvas')].every((c) => Number(c.dataset.points) > 0)`, 30_000);
              await shoot(page, outDir, `${prefix}-${view}`);
            }
            await page.keyboard.press('1');
            await page.keyboard.press('f');
            await page.waitForSelector('.app.dashboard');
            await shoot(page, outDir, `${prefix}-dashboard`);
            await page.close();
          }
        }
      } finally {
        await stack.close();
      }
    }
    if (states.length > 0) await shootStates(built.dir, browser, (page, name) => shoot(page, outDir, name), states);
    if (wanted.includes('import')) await importScreens(browser, built.dir, SIZES, (page, name) => shoot(page, outDir, name));
  } finally {
    await browser.close();
    await built.remove();
  }
  console.log(outDir);
}

await main();
