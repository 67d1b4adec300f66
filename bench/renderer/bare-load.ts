/**
 * Long tasks of a page load in a browser no tool is attached to (prints, asserts nothing). Playwright attaches the
 * DevTools protocol to every page it drives, and with it attached V8 re-parses each script to collect source
 * positions as it runs (about 10-15 ms per chunk here), which an operator's browser never does; every other renderer
 * figure carries that cost. Here Chromium is started with startup tracing and nothing attached, on a blank page that
 * opens the dashboard once the browser has settled; the page's tasks are counted from its document's first parse, as
 * the Long Tasks API would, and only once the trace is written does the bench connect, to check every node was drawn.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM } from '../../renderer/e2e/chromium-launch.js';
import { buildRenderer, GRID_NODES, startStack } from '../../renderer/e2e/harness.js';
import { fmt } from '../stats.js';
import { mainTasks, type MainTask, type TraceEvent } from './trace.js';

const RUNS = Number(process.env.BENCH_BARE_RUNS ?? 4);
const TRACE_SECONDS = 5;
const SETTLE_SECONDS = 3;
const CLUSTER = { dataNodes: 144, mgmNodes: 2, apiNodes: 109, connectedApiNodes: 40, replicas: 2 } as const;

interface BareRun {
  tasks: MainTask[];
  /** Main-thread time V8 spent collecting source positions: 0 unless something asked for stack traces. */
  sourcePositionsMs: number;
  /** Node cards or tiles in the grid at the trace's end (free API slots are folded into one). */
  tilesDrawn: number;
}

async function traceWritten(file: string, deadline: number): Promise<TraceEvent[]> {
  for (;;) {
    const size = await stat(file).then((s) => s.size, () => 0);
    if (size > 0) {
      try {
        const parsed = JSON.parse(await readFile(file, 'utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
        return Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
      } catch {
        // Still being written.
      }
    }
    if (Date.now() > deadline) throw new Error('Chromium wrote no startup trace');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function bareRun(url: string): Promise<BareRun> {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-bare-'));
  const file = join(dir, 'trace.json');
  const browser = spawn(
    CHROMIUM,
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${join(dir, 'profile')}`,
      '--window-size=1920,1080',
      '--remote-debugging-port=0',
      '--trace-startup=toplevel,v8,devtools.timeline,disabled-by-default-v8.compile',
      '--trace-startup-format=json',
      `--trace-startup-file=${file}`,
      `--trace-startup-duration=${SETTLE_SECONDS + TRACE_SECONDS}`,
      // A blank page first, which opens the dashboard once the browser has settled: an operator's browser is running.
      `data:text/html,<script>setTimeout(() => location.assign(${JSON.stringify(url)}), ${SETTLE_SECONDS * 1000})</script>`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  browser.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const events = await traceWritten(file, Date.now() + (SETTLE_SECONDS + TRACE_SECONDS + 20) * 1000);
    // The dashboard's renderer is the process that fetched its URL (headless Chromium also runs pages of its own), and
    // the page runs on that process's main thread.
    const origin = new URL(url).origin;
    const renderers = new Set(events.filter((e) => e.name === 'process_name' && e.args?.name === 'Renderer').map((e) => e.pid));
    const pid = events.find((e) => renderers.has(e.pid) && e.args?.data?.url?.startsWith(origin))?.pid;
    const tid = events.find((e) => e.pid === pid && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')?.tid;
    const thread = events.filter((e) => e.ph === 'X' && e.pid === pid && e.tid === tid);
    // A task is `RunTask` with the DevTools timeline's categories, the scheduler's own event without them.
    const tasks = thread.some((e) => e.name === 'RunTask') ? thread : thread.map((e) => (e.name === 'ThreadControllerImpl::RunTask' ? { ...e, name: 'RunTask' } : e));
    // The page's tasks, as the Long Tasks API counts them: from its document's first parse, not the process's start.
    const parsed = Math.min(...thread.filter((e) => e.name === 'ParseHTML').map((e) => e.ts));
    const own = tasks.filter((e) => e.ts + (e.dur ?? 0) >= parsed);
    const sourcePositionsMs = own.filter((e) => e.name === 'V8.CollectSourcePositions').reduce((a, e) => a + (e.dur ?? 0), 0) / 1000;
    // Only now, with the trace written, a client attaches: to count the tiles drawn in the traced seconds.
    const endpoint = /DevTools listening on (ws:\/\/\S+)/.exec(stderr)?.[1];
    let tilesDrawn = 0;
    if (endpoint) {
      const client = await chromium.connectOverCDP(endpoint);
      const page = client.contexts()[0]?.pages()[0];
      tilesDrawn = Number(await page?.evaluate(`document.querySelectorAll(${JSON.stringify(GRID_NODES)}).length`));
      await client.close();
    }
    return { tasks: mainTasks(own), sourcePositionsMs, tilesDrawn };
  } finally {
    const exited = new Promise((resolve) => browser.once('exit', resolve));
    browser.kill('SIGKILL');
    await exited;
    // Its helper processes may still be closing files in the profile.
    await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
}

async function measure(scenario: 'idle' | 'benchmark'): Promise<void> {
  const built = await buildRenderer();
  const stack = await startStack(built.dir, { pollIntervalMs: scenario === 'benchmark' ? 100 : 1000, simulator: { scenario, ...CLUSTER } });
  try {
    const runs: BareRun[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await bareRun(stack.url));
    const long = runs.map((r) => r.tasks.filter((t) => t.wall > 50));
    console.log(
      `  ${scenario.padEnd(9)} long tasks (wall > 50 ms) per load: ${long.map((l) => l.length).join(' ')}, longest wall ${long.map((l) => fmt(Math.max(0, ...l.map((t) => t.wall)), 0)).join(' ')} ms; most CPU in one task ${runs.map((r) => fmt(Math.max(0, ...r.tasks.map((t) => t.cpu)), 0)).join(' ')} ms; nodes drawn ${runs.map((r) => r.tilesDrawn).join(' ')} (every node: ${CLUSTER.dataNodes + CLUSTER.mgmNodes + CLUSTER.connectedApiNodes}); source positions collected ${runs.map((r) => fmt(r.sourcePositionsMs, 0)).join(' ')} ms`,
    );
    const worst = runs.flatMap((r) => r.tasks).sort((a, b) => b.wall - a.wall).slice(0, 4);
    for (const t of worst) console.log(`    ${fmt(t.wall, 0)} ms wall, ${fmt(t.cpu, 0)} CPU: ${t.what}`);
  } finally {
    await stack.close();
    await built.remove();
  }
}

export async function benchBareLoad(): Promise<void> {
  console.log(`== renderer page load, no DevTools attached (1920×1080, 144 data nodes, ${RUNS} cold starts of Chromium each, its first ${TRACE_SECONDS} s traced)`);
  await measure('idle');
  await measure('benchmark');
}
