/**
 * The Threads view at 144 data nodes × 20 threads, a reading every second, over a 15-minute window (prints figures,
 * asserts nothing). The engine watches the simulator's 144-node cluster and is fed cpustat readings as an SQL source
 * would feed them (the embedded SQL node stops at 48 data nodes, and the simulator's nodes run 11 threads): 15 minutes
 * of them before the page opens, then one a second. The engine, simulator and feeder run in this process, on the same
 * cores as the browser (as the desktop app's engine would; the simulator is the bench's own cost, printed at the end).
 * Phases measured apart: the view's mount (key 9 until the heatmap is drawn, and a second after) and a window switch
 * (15 m → 1 h → 15 m), traced; then steady state, untraced for what an operator sees (see `steady`) and traced for
 * what it cost. With NDBTOP_BENCH_BASELINE_RENDERER the same phases run for a baseline build too, A B B A, with ratios.
 */
import { availableParallelism, loadavg } from 'node:os';
import type { Browser, CDPSession, Page } from 'playwright-core';
import type { ThreadCpuRow } from '../../ndbinfo/client/rows.js';
import type { Engine } from '../../electron/engine/engine.js';
import type { EngineHost } from '../../electron/engine/core/engine-host.js';
import { startServeServer } from '../../electron/serve/serve-server.js';
import { buildRenderer, launchChromium, startStack, waitInPage, type Stack } from '../../renderer/e2e/harness.js';
import { percentile } from '../stats.js';
import { measurePhase, ms, phaseLine, type PhaseFigures } from './phase-figures.js';
import { profilePhase, unminifiedBuild } from './profile.js';

const DATA_NODES = 144;
const KINDS = ['main', 'rep', ...Array(8).fill('ldm'), ...Array(4).fill('query'), ...Array(3).fill('tc'), 'recv', 'send', 'send'] as const;
const WINDOW_SECONDS = 900;
const STEADY_SECONDS = 15;
const TRACED_SECONDS = 10;
/** A renderer built from another commit (`vite build --outDir`), measured in the same run against this one: A/B. */
const BASELINE = process.env.NDBTOP_BENCH_BASELINE_RENDERER;

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
const settle = (msecs: number) => new Promise((resolve) => setTimeout(resolve, msecs));

/** Frames and long tasks of a page's probe since `reset`. */
const resetProbe = (page: Page) => page.evaluate('window.__bench.frames = []; window.__bench.longTasks = []');
const readProbe = (page: Page) => page.evaluate('({ frames: window.__bench.frames, longTasks: window.__bench.longTasks })') as Promise<{ frames: number[]; longTasks: number[] }>;

/**
 * Steady state as an operator sees it: frames and long tasks with no tracer attached (tracing costs the page time of
 * its own), beside the frames of a blank page in the same browser over the same seconds: what the machine's load
 * alone does to frames (the other helpers' work, and this process's engine, simulator and feeder). Then a traced
 * stretch for what the page's main thread spent: its CPU a second, whatever the load.
 */
interface Steady {
  frames: number[];
  longTasks: number[];
  control: number[];
  cpuPerSecond: number;
  /** The same over tasks of 3 ms or more: the updates' work, without each frame's small fixed cost. */
  workPerSecond: number;
  heaviest: number[];
}

async function steady(page: Page, cdp: CDPSession, control: Page): Promise<Steady> {
  await Promise.all([resetProbe(page), resetProbe(control)]);
  await settle(STEADY_SECONDS * 1000);
  const [seen, blank] = await Promise.all([readProbe(page), readProbe(control)]);
  const traced = await measurePhase(page, cdp, () => settle(TRACED_SECONDS * 1000).then(() => undefined));
  const cpu = traced.tasks.map((t) => t.cpu);
  return { ...seen, control: blank.frames, cpuPerSecond: cpu.reduce((a, b) => a + b, 0) / TRACED_SECONDS, workPerSecond: cpu.filter((c) => c >= 3).reduce((a, b) => a + b, 0) / TRACED_SECONDS, heaviest: cpu.sort((a, b) => b - a).slice(0, 6) };
}

async function phases(page: Page, cdp: CDPSession): Promise<Array<[string, PhaseFigures]>> {
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

type Build = 'this' | 'baseline';

/** A page at 1920×1080 (the width at which 15 minutes are a column a second) on the Nodes view, probed. */
async function openPage(browser: Browser, url: string): Promise<{ page: Page; cdp: CDPSession }> {
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  await page.goto(url);
  await page.waitForSelector('[data-testid="node-1"]', { timeout: 60_000 });
  await page.evaluate(`window.__ndbtopStore.setUi({ window: '15m' })`);
  await page.evaluate(PROBE);
  return { page, cdp: await page.context().newCDPSession(page) };
}

/**
 * The fed stack with this build's page and, given NDBTOP_BENCH_BASELINE_RENDERER, a second server on the same engine
 * with the baseline's; `body` gets a browser, the URL of each build and a blank page for the machine's own frames.
 */
async function withFedStack(built: { dir: string; remove(): Promise<void> }, body: (browser: Browser, urls: Partial<Record<Build, string>>, control: Page, engine: Engine) => Promise<void>): Promise<void> {
  const stack = await startFedStack(built.dir);
  const engine = stack.engine as Engine;
  const baseline = BASELINE ? await startServeServer({ engine, staticDir: BASELINE, host: '127.0.0.1', port: 0, allowChanges: true }) : null;
  const browser = await launchChromium();
  try {
    const control = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await control.evaluate(PROBE);
    await body(browser, { this: stack.url, ...(baseline ? { baseline: baseline.url } : {}) }, control, engine);
  } finally {
    await browser.close();
    await baseline?.close();
    await stack.close();
    await built.remove();
  }
}

const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

/** Frames that missed their vsync (a 60 Hz frame lasts 16.7 ms; the probe's intervals jitter by a few tenths). */
const late = (frames: readonly number[]): number => frames.filter((f) => f > 20).length;

function steadyLine(label: string, s: Steady): string {
  return `${label} ${s.frames.length} frames · p95 ${ms(percentile(s.frames, 95))} (goal <= 16.7 ms; a blank page, same seconds: p95 ${ms(percentile(s.control, 95))}, ${late(s.control)} of ${s.control.length} frames late) · ${late(s.frames)} frames late · long tasks ${s.longTasks.length} (longest ${ms(Math.max(0, ...s.longTasks))}) · main thread ${s.cpuPerSecond.toFixed(0)} ms of CPU a second traced, ${s.workPerSecond.toFixed(0)} ms of it in tasks of 3 ms or more (heaviest tasks, ms of CPU: ${s.heaviest.map((v) => v.toFixed(0)).join(' ')})`;
}

export async function benchThreads(): Promise<void> {
  console.log('== threads');
  await withFedStack(await buildRenderer(), async (browser, urls, control, engine) => {
    // Builds alternate (A B B A) so that the machine's load drifting during the run weighs on both alike.
    const order: Build[] = urls.baseline ? ['baseline', 'this', 'this', 'baseline'] : ['this'];
    const results: Array<{ build: Build; phases: Array<[string, PhaseFigures]>; steady: Steady }> = [];
    for (const build of order) {
      const { page, cdp } = await openPage(browser, urls[build]!);
      const figures = await phases(page, cdp);
      results.push({ build, phases: figures, steady: await steady(page, cdp, control) });
      if (results.length === 1) {
        const columns = await page.evaluate(`${heatmap}.dataset.columns`);
        const bytes = engine.entries()[0]!.tracker.threadSeries.bytes();
        console.log(`threads bench: ${DATA_NODES} data nodes × ${KINDS.length} threads, a reading a second, 15-minute window (${String(columns)} columns at 1920×1080), engine series ${(bytes / 2 ** 20).toFixed(1)} MiB, Chromium ${browser.version()}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${availableParallelism()} cores`);
      }
      await page.close();
      const tag = urls.baseline ? `[${build}] ` : '';
      for (const [what, f] of figures) console.log(phaseLine(`  ${tag}threads 15 m, ${what.padEnd(14)}`, f));
      console.log(steadyLine(`  ${tag}threads 15 m, steady ${STEADY_SECONDS} s`, results.at(-1)!.steady));
    }
    if (urls.baseline) {
      const of = (build: Build, pick: (r: (typeof results)[number]) => number): number => mean(results.filter((r) => r.build === build).map(pick));
      const ratio = (label: string, pick: (r: (typeof results)[number]) => number, unit: string): void => {
        const [a, b] = [of('baseline', pick), of('this', pick)];
        console.log(`  A/B ${label.padEnd(34)} baseline ${a.toFixed(1)}${unit} · this ${b.toFixed(1)}${unit} · this/baseline ${(b / a).toFixed(2)}`);
      };
      const phase = (r: (typeof results)[number], name: string): PhaseFigures => r.phases.find(([what]) => what === name)![1];
      const heaviest = (f: PhaseFigures): number => Math.max(0, ...f.tasks.map((t) => t.cpu));
      ratio('steady frame p95', (r) => percentile(r.steady.frames, 95), ' ms');
      ratio('steady blank-page frame p95', (r) => percentile(r.steady.control, 95), ' ms');
      ratio('steady frames late', (r) => late(r.steady.frames), '');
      ratio('steady blank-page frames late', (r) => late(r.steady.control), '');
      ratio('steady long tasks', (r) => r.steady.longTasks.length, '');
      ratio('steady main-thread CPU a second', (r) => r.steady.cpuPerSecond, ' ms');
      ratio('steady CPU a second, tasks >= 3 ms', (r) => r.steady.workPerSecond, ' ms');
      ratio('steady heaviest task CPU', (r) => r.steady.heaviest[0] ?? 0, ' ms');
      ratio('mount long tasks', (r) => phase(r, 'mount').longTasks.length, '');
      ratio('mount heaviest task CPU', (r) => heaviest(phase(r, 'mount')), ' ms');
      ratio('window switch long tasks', (r) => phase(r, 'window switch').longTasks.length, '');
      ratio('window switch heaviest task CPU', (r) => heaviest(phase(r, 'window switch')), ' ms');
    }
    // The engine runs in this process beside the simulator: its CPU a second, steady, is what a reading costs there.
    const before = process.cpuUsage();
    await settle(10_000);
    const used = process.cpuUsage(before);
    console.log(`  engine + simulator + feeder process, steady: ${((used.user + used.system) / 1000 / 10).toFixed(0)} ms of CPU a second (on the same 2 cores as the page); load average now ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  });
}

/** `npm run bench threads-profile`: the Threads view's mount and steady state attributed (unminified build). */
export async function profileThreads(): Promise<void> {
  console.log('== threads profile (long and heavy tasks attributed)');
  await withFedStack(await unminifiedBuild(), async (browser, urls) => {
    const { page, cdp } = await openPage(browser, urls.this!);
    await profilePhase(cdp, 'threads mount', async () => {
      await page.keyboard.press('9');
      await waitInPage(page, `${heatmap}?.dataset.rows === '${DATA_NODES * KINDS.length}' && Number(${heatmap}.dataset.version) > 0`, 60_000);
      await settle(1000);
    });
    await profilePhase(cdp, `threads steady ${STEADY_SECONDS} s`, () => settle(STEADY_SECONDS * 1000).then(() => undefined));
  });
}
