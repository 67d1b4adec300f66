/**
 * Responsiveness figures (printed, never asserted): for a 4-node and a 144-node simulated cluster under the benchmark
 * load, served to real Chromium at 1920×1080,
 *   - long tasks (> 50 ms) while the page loads, from before its first script until it has shown every node and a
 *     few seconds of pushes, over several cold loads (the first in a browser just started), each named by the scripts
 *     the Long Animation Frames API saw run in it;
 *   - each view switch by its key: time from the keydown to the end of the next painted frame, and to the frame
 *     where the view is complete (every tile, every sparkline: heavy parts may follow the first frame);
 *   - long tasks while the Throughput view is open in steady state.
 * The 144-node figures are printed beside the 4-node ones, as ratios, because absolute times on a shared machine
 * say little.
 */
import type { Browser, Page } from 'playwright-core';
import { buildRenderer, GRID_NODES, launchChromium, startStack, waitInPage } from '../../renderer/e2e/harness.js';
import { VIEWS, viewKey, type ViewName } from '../../renderer/src/store/ui-slice.js';
import { fmt, percentile } from '../stats.js';

const STEADY_SECONDS = Number(process.env.BENCH_STEADY_SECONDS ?? 15);
const ROUNDS = 3;
/** Cold loads per cluster size, each in a fresh browser context; the first is also the browser's first page. */
const LOADS = Number(process.env.BENCH_LOADS ?? 3);
/** Every view, the Nodes view last: each switch starts from another view. */
const ORDER = [...VIEWS.slice(1), VIEWS[0]];

/** What "the view is all there" means, per view. */
function complete(view: ViewName, dataNodes: number): { selector: string; count: number } {
  if (view === 'nodes') return { selector: GRID_NODES, count: dataNodes };
  if (view === 'throughput') return { selector: '.small-multiple', count: dataNodes };
  return { selector: `main[data-view="${view}"]`, count: 1 };
}

/** Installed before the page's own scripts: every long task from the start, and a keydown → painted-frame timer. */
const PROBE = `(() => {
  const probe = (window.__resp = { longTasks: [], switches: [], complete: [], want: null });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) probe.longTasks.push({ at: e.startTime, ms: e.duration }); }).observe({ type: 'longtask', buffered: true });
  // What ran in each long frame: module evaluations, handlers (by their invoker and file), callbacks.
  probe.frames = [];
  new PerformanceObserver((list) => {
    for (const f of list.getEntries()) probe.frames.push({ at: f.startTime, end: f.startTime + f.duration, scripts: f.scripts.map((s) => ({ at: s.startTime, ms: s.duration, what: (s.invokerType === 'classic-script' || s.invokerType === 'module-script' ? 'module ' : s.invoker + ' ') + (s.sourceURL.split('/').pop() || '').replace(/-[\\w-]{8}\\.js$/, '') })) });
  }).observe({ type: 'long-animation-frame', buffered: true });
  window.addEventListener('keydown', (e) => {
    const t0 = e.timeStamp;
    // React renders a key's update before the next frame; the task after that frame's callback runs once it is painted.
    requestAnimationFrame(() => setTimeout(() => probe.switches.push({ key: e.key, ms: performance.now() - t0 }), 0));
    // And until the view is all there (every tile, every sparkline), checked at each frame.
    const want = probe.want;
    if (!want) return;
    const check = () => {
      if (document.querySelectorAll(want.selector).length >= want.count) setTimeout(() => probe.complete.push(performance.now() - t0), 0);
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }, true);
})()`;

/** A long task of a page load, and the script that ran longest in it (if the Long Animation Frames API saw one). */
interface LoadLongTask {
  ms: number;
  what: string;
}

interface Figures {
  /** Per cold load. */
  loads: LoadLongTask[][];
  switches: Map<string, number[]>;
  completes: Map<string, number[]>;
  steadyLongTasks: number[];
}

async function longTasksSince(page: Page, since: number): Promise<number[]> {
  return (await page.evaluate(`window.__resp.longTasks.filter((t) => t.at >= ${since}).map((t) => t.ms)`)) as number[];
}

/** A cold load to every node shown and a few history pushes: its long tasks, each named by its longest script. */
async function load(browser: Browser, url: string, dataNodes: number): Promise<{ page: Page; longTasks: LoadLongTask[] }> {
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const page = await context.newPage();
  await page.addInitScript(PROBE);
  await page.goto(url);
  await waitInPage(page, `document.querySelectorAll(${JSON.stringify(GRID_NODES)}).length >= ${dataNodes}`, 60_000);
  await waitInPage(page, `window.__ndbtopStore.getState().shown.historyVersion > 3`, 60_000);
  const longTasks = (await page.evaluate(`window.__resp.longTasks.map((t) => {
    const scripts = window.__resp.frames.filter((f) => f.at <= t.at + t.ms && t.at <= f.end).flatMap((f) => f.scripts).filter((s) => s.at >= t.at - 1 && s.at <= t.at + t.ms);
    const top = scripts.sort((a, b) => b.ms - a.ms)[0];
    return { ms: t.ms, what: top ? top.what + ' ' + Math.round(top.ms) : 'no script (style, layout, paint)' };
  })`)) as LoadLongTask[];
  return { page, longTasks };
}

async function measure(dataNodes: number): Promise<Figures> {
  const built = await buildRenderer();
  const stack = await startStack(built.dir, {
    simulator: dataNodes > 4 ? { scenario: 'benchmark', dataNodes, mgmNodes: 2, apiNodes: 109, connectedApiNodes: 40, replicas: 2 } : { scenario: 'benchmark', dataNodes },
  });
  const browser = await launchChromium();
  try {
    const loads: LoadLongTask[][] = [];
    let page: Page | null = null;
    for (let i = 0; i < LOADS; i++) {
      await page?.context().close();
      const loaded = await load(browser, stack.url, dataNodes);
      loads.push(loaded.longTasks);
      page = loaded.page;
    }
    if (!page) throw new Error('BENCH_LOADS must be at least 1');

    const switches = new Map<string, number[]>(ORDER.map((v) => [v, []]));
    const completes = new Map<string, number[]>(ORDER.map((v) => [v, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const view of ORDER) {
        const before = Number(await page.evaluate('window.__resp.switches.length'));
        const done = Number(await page.evaluate('window.__resp.complete.length'));
        await page.evaluate(`window.__resp.want = ${JSON.stringify(complete(view, dataNodes))}`);
        await page.keyboard.press(viewKey(VIEWS.indexOf(view)));
        await waitInPage(page, `window.__resp.switches.length > ${before} && window.__resp.complete.length > ${done}`);
        // Let the view settle (charts fetch their history) before the next switch.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        switches.get(view)?.push(Number(await page.evaluate(`window.__resp.switches[${before}].ms`)));
        completes.get(view)?.push(Number(await page.evaluate(`window.__resp.complete[${done}]`)));
      }
    }

    await page.evaluate('window.__resp.want = null');
    await page.keyboard.press('3');
    await waitInPage(page, `Number(document.querySelector('[data-testid="throughput-chart"]')?.dataset.points) > 1`);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const from = Number(await page.evaluate('performance.now()'));
    await new Promise((resolve) => setTimeout(resolve, STEADY_SECONDS * 1000));
    const steadyLongTasks = await longTasksSince(page, from);
    return { loads, switches, completes, steadyLongTasks };
  } finally {
    await browser.close();
    await stack.close();
    await built.remove();
  }
}

const ratio = (a: number, b: number): string => (b > 0 ? `${fmt(a / b, 1)}×` : 'n/a');

export async function benchResponsiveness(): Promise<void> {
  console.log('== renderer responsiveness (1920×1080, benchmark load)');
  const small = await measure(4);
  const large = await measure(144);
  const longest = (xs: readonly number[]): number => Math.max(0, ...xs);
  const loads = (f: Figures): string => `${f.loads.map((l) => l.length).join(' ')} (longest ${fmt(longest(f.loads.flat().map((t) => t.ms)), 0)} ms)`;
  console.log(`  page load, long tasks >50 ms per cold load   4 nodes: ${loads(small)} · 144 nodes: ${loads(large)}`);
  for (const [size, f] of [['4', small], ['144', large]] as const) {
    for (const t of f.loads.flat().sort((a, b) => b.ms - a.ms)) console.log(`    ${size} nodes: ${fmt(t.ms, 0)} ms, longest script in it: ${t.what} ms`);
  }
  for (const view of ORDER) {
    for (const [what, pick] of [
      ['next frame', (f: Figures) => f.switches],
      ['complete  ', (f: Figures) => f.completes],
    ] as const) {
      const s = pick(small).get(view) ?? [];
      const l = pick(large).get(view) ?? [];
      console.log(
        `  switch to ${view.padEnd(10)} ${what}   4 nodes: p50 ${fmt(percentile(s, 50), 0)} ms, max ${fmt(longest(s), 0)} ms · 144 nodes: p50 ${fmt(percentile(l, 50), 0)} ms, max ${fmt(longest(l), 0)} ms · ratio ${ratio(percentile(l, 50), percentile(s, 50))}`,
      );
    }
  }
  const perSecond = (xs: readonly number[]): string => fmt(xs.length / STEADY_SECONDS, 2);
  console.log(
    `  throughput view, ${STEADY_SECONDS} s steady     4 nodes: ${small.steadyLongTasks.length} long tasks (${perSecond(small.steadyLongTasks)}/s, longest ${fmt(longest(small.steadyLongTasks), 0)} ms) · 144 nodes: ${large.steadyLongTasks.length} (${perSecond(large.steadyLongTasks)}/s, longest ${fmt(longest(large.steadyLongTasks), 0)} ms)`,
  );
}
