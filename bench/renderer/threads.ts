/**
 * The Threads view at 144 data nodes × 20 threads, a reading every second, over a 15-minute window (prints figures,
 * asserts nothing). The engine watches the simulator's 144-node cluster and is fed cpustat readings as an SQL source
 * would feed them (the embedded SQL node stops at 48 data nodes, and the simulator's nodes run 11 threads): 15 minutes
 * of them before the page opens, then one a second. Three phases measured apart, as the throughput bench does: the
 * view's mount (key 9 until the heatmap is drawn, and a second after), a window switch (15 m → 1 h → 15 m) and 15 s of
 * steady state; frame times, long tasks and the CPU time of the heaviest main-thread tasks from a trace.
 */
import { availableParallelism, loadavg } from 'node:os';
import type { CDPSession, Page } from 'playwright-core';
import type { ThreadCpuRow } from '../../ndbinfo/client/rows.js';
import type { Engine } from '../../electron/engine/engine.js';
import type { EngineHost } from '../../electron/engine/engine-host.js';
import { buildRenderer, launchChromium, startStack, waitInPage, type Stack } from '../../renderer/e2e/harness.js';
import { measurePhase, phaseLine, type PhaseFigures } from './phase-figures.js';
import { profilePhase, unminifiedBuild } from './profile.js';

const DATA_NODES = 144;
const KINDS = ['main', 'rep', ...Array(8).fill('ldm'), ...Array(4).fill('query'), ...Array(3).fill('tc'), 'recv', 'send', 'send'] as const;
const WINDOW_SECONDS = 900;
const STEADY_SECONDS = 15;

/** One second's cpustat rows of every thread: LDM threads busy, the rest less so, moving with time and node. */
function cpuRows(at: number): ThreadCpuRow[] {
  const rows: ThreadCpuRow[] = [];
  const wave = Math.sin((at / 45_000) * Math.PI);
  for (let nodeId = 1; nodeId <= DATA_NODES; nodeId++) {
    KINDS.forEach((name, thrNo) => {
      const base = name === 'ldm' ? 80 : name === 'tc' ? 40 : name === 'recv' || name === 'send' ? 25 : 8;
      // Whole percentages, as cpustat gives them (and the simulator's SQL node).
      const exec = Math.round(Math.max(0, Math.min(95, base + 12 * wave + ((nodeId * 7 + thrNo * 3) % 11) - 5)));
      rows.push({ nodeId, thrNo, threadName: name, osUser: exec, osSystem: 3, osIdle: 97 - exec, threadExec: exec, threadSleeping: 95 - exec, threadSpinning: 1, threadSend: 4, threadBufferFull: 0, elapsedTime: 1_000_000 });
    });
  }
  return rows;
}

function feedReading(engine: Engine, id: string, at: number): void {
  engine.feed(id, { kind: 'ndbinfo', t: at, sample: { reading: 'cpu', sqlNode: 'mysql://bench@127.0.0.1:3306', at, durationMs: 3, rows: cpuRows(at) } });
}

/** The SQL source up and 15 minutes of readings, before the engine's first tick. */
function fillThreads(host: EngineHost, now = Date.now()): void {
  const engine = host as Engine;
  for (const entry of engine.entries()) {
    engine.feed(entry.id, { kind: 'ndbinfo-link', t: now - WINDOW_SECONDS * 1000, state: { kind: 'up', at: now - WINDOW_SECONDS * 1000, sqlNode: 'mysql://bench@127.0.0.1:3306', serverVersion: '8.4.3-cluster', tls: false, tables: ['cpustat', 'threads'], missing: [], failedOverFrom: null, failovers: 0 } });
    for (let i = WINDOW_SECONDS; i >= 1; i--) feedReading(engine, entry.id, now - i * 1000);
  }
}

const PROBE = `(() => {
  const probe = (window.__bench = { frames: [], longTasks: [] });
  let last = performance.now();
  const frame = (t) => { probe.frames.push(t - last); last = t; requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  new PerformanceObserver((list) => { for (const e of list.getEntries()) probe.longTasks.push(e.duration); }).observe({ entryTypes: ['longtask'] });
})()`;

const heatmap = `document.querySelector('[data-testid="thread-heatmap"]')`;

async function phases(page: Page, cdp: CDPSession): Promise<Array<[string, PhaseFigures]>> {
  const settle = (msecs: number) => new Promise((resolve) => setTimeout(resolve, msecs));
  const measured = (run: () => Promise<void>): Promise<PhaseFigures> => measurePhase(page, cdp, run);
  // 15 minutes fit 1920 px a column a second; an hour takes a few seconds a column.
  const drawn = (seconds: number): string => `${heatmap}?.dataset.rows === '${DATA_NODES * KINDS.length}' && Number(${heatmap}.dataset.stepMs) ${seconds > WINDOW_SECONDS ? '>' : '==='} 1000 && Number(${heatmap}.dataset.version) > 0`;
  const out: Array<[string, PhaseFigures]> = [];
  out.push([
    'mount',
    await measured(async () => {
      await page.keyboard.press('9');
      await waitInPage(page, drawn(900), 60_000);
      await settle(1000);
    }),
  ]);
  out.push([
    'window switch',
    await measured(async () => {
      await page.selectOption('[data-testid="threads-window"]', '1h');
      await waitInPage(page, drawn(3600), 60_000);
      await settle(2000);
      await page.selectOption('[data-testid="threads-window"]', '15m');
      await waitInPage(page, drawn(900), 60_000);
      await settle(2000);
    }),
  ]);
  out.push([`steady ${STEADY_SECONDS} s`, await measured(() => settle(STEADY_SECONDS * 1000).then(() => undefined))]);
  return out;
}

/**
 * The 144-node simulator's stack with 15 minutes of thread readings and one more every second, as an SQL source
 * would give them (the screenshots use it too when the 144-node SQL simulator cannot keep up); `close` stops all.
 */
export async function startFedStack(dir: string): Promise<Stack> {
  const stack = await startStack(dir, { pollIntervalMs: 1000, simulator: { scenario: 'steady', dataNodes: DATA_NODES, mgmNodes: 2, apiNodes: 20, replicas: 2 } }, (engine) => fillThreads(engine));
  const engine = stack.engine as Engine;
  const clusterId = engine.entries()[0]!.id;
  const ticker = setInterval(() => feedReading(engine, clusterId, Date.now()), 1000);
  return {
    ...stack,
    close: () => {
      clearInterval(ticker);
      return stack.close();
    },
  };
}

/** The fed stack and a page at 1920×1080 on the Nodes view, for `body`; all closed after. */
async function withThreadsPage(built: { dir: string; remove(): Promise<void> }, body: (page: Page, cdp: CDPSession, engine: Engine) => Promise<void>): Promise<void> {
  const stack = await startFedStack(built.dir);
  const engine = stack.engine as Engine;
  const browser = await launchChromium();
  try {
    // The width at which a 15-minute window is one column per second.
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.goto(stack.url);
    await page.waitForSelector('[data-testid="node-1"]', { timeout: 60_000 });
    await page.evaluate(`window.__ndbtopStore.setUi({ window: '15m' })`);
    await page.evaluate(PROBE);
    await body(page, await page.context().newCDPSession(page), engine);
  } finally {
    await browser.close();
    await stack.close();
    await built.remove();
  }
}

export async function benchThreads(): Promise<void> {
  console.log('== threads');
  await withThreadsPage(await buildRenderer(), async (page, cdp, engine) => {
    const figures = await phases(page, cdp);
    const columns = await page.evaluate(`${heatmap}.dataset.columns`);
    const bytes = engine.entries()[0]!.tracker.threadSeries.bytes();
    console.log(`threads bench: ${DATA_NODES} data nodes × ${KINDS.length} threads, a reading a second, 15-minute window (${String(columns)} columns at 1920×1080), engine series ${(bytes / 2 ** 20).toFixed(1)} MiB, Chromium ${page.context().browser()?.version() ?? ''}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${availableParallelism()} cores`);
    for (const [what, f] of figures) console.log(phaseLine(`  threads 15 m, ${what.padEnd(14)}`, f));
    // The engine runs in this process beside the simulator: its CPU a second, steady, is what a reading costs there.
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const used = process.cpuUsage(before);
    console.log(`  engine + simulator process, steady: ${((used.user + used.system) / 1000 / 10).toFixed(0)} ms of CPU a second`);
  });
}

/** `npm run bench threads-profile`: the Threads view's mount and steady state attributed (unminified build). */
export async function profileThreads(): Promise<void> {
  console.log('== threads profile (long and heavy tasks attributed)');
  await withThreadsPage(await unminifiedBuild(), async (page, cdp) => {
    await profilePhase(cdp, 'threads mount', async () => {
      await page.keyboard.press('9');
      await waitInPage(page, `${heatmap}?.dataset.rows === '${DATA_NODES * KINDS.length}' && Number(${heatmap}.dataset.version) > 0`, 60_000);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    });
    await profilePhase(cdp, `threads steady ${STEADY_SECONDS} s`, () => new Promise((resolve) => setTimeout(resolve, STEADY_SECONDS * 1000)));
  });
}
