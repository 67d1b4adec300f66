/**
 * Cold first paint (prints figures, asserts nothing): from `serve` listening (engine up, simulator of 255 nodes
 * answering) to the first node card painted, in a fresh browser context (cold cache), as an operator opening the
 * URL sees it. Each run starts a fresh stack and prints where the time went, hop by hop, and what the page's main
 * thread spent in its tasks (CPU time from a trace: what the page cost, whatever else the machine was running).
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Browser } from 'playwright-core';
import { GRID_NODES, launchChromium, type Stack, startStack, waitInPage } from '../../renderer/e2e/harness.js';
import { fmt, percentile } from '../stats.js';
import { mainTasks, onMainThread, TIMELINE, traceAll, type MainTask } from './trace.js';

const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 5);
/** After every tile is there, the load is traced this much longer (pushes, the backfill's answers). */
const LOAD_TAIL_MS = 2000;
/** A second built renderer (e.g. of the main branch) to run alternately with this one, printed side by side. */
const COMPARE_DIR = process.env.BENCH_COLD_COMPARE;
/** BENCH_COLD_LOAD=benchmark: the page opened while the simulated cluster runs a benchmark, polled 10 times a second. */
const UNDER_LOAD = process.env.BENCH_COLD_LOAD === 'benchmark';
const CLUSTER = { scenario: UNDER_LOAD ? 'benchmark' : 'idle', dataNodes: 144, mgmNodes: 2, apiNodes: 109, connectedApiNodes: 40, replicas: 2 } as const;
const POLL_MS = UNDER_LOAD ? 100 : 1000;

/**
 * Installed before the page's scripts. Epoch milliseconds (comparable with the Node side's) of: the WebSocket made
 * (the main chunk has run its top level), open, its first frame, the message that brought the first nodes (the
 * largest frame so far: the page stores what a frame brought in a task after it, and small frames may come between),
 * the store holding them, the first node card in the DOM, and the frame after it.
 */
const PROBE = `(() => {
  const now = () => performance.timeOrigin + performance.now();
  const hops = (window.__cold = {});
  const Native = window.WebSocket;
  let largest = null;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      hops.wsCreated ??= now();
      super.addEventListener('open', () => (hops.wsOpen ??= now()));
    }
    addEventListener(type, listener, options) {
      if (type !== 'message') return super.addEventListener(type, listener, options);
      return super.addEventListener(type, (event) => {
        const at = now();
        hops.firstFrame ??= at;
        const bytes = typeof event.data === 'string' ? event.data.length : 0;
        if (!largest || bytes > largest.bytes) largest = { at, bytes };
        listener(event);
      }, options);
    }
  };
  Object.defineProperty(window, '__ndbtopStore', {
    configurable: true,
    set(store) {
      Object.defineProperty(window, '__ndbtopStore', { value: store, configurable: true });
      const off = store.subscribe((s) => {
        if (s.live.nodes.size === 0) return;
        hops.store = now();
        performance.mark('ndbtop-cold-store');
        hops.message = largest?.at;
        hops.messageBytes = largest?.bytes;
        off();
      });
    },
  });
  const seen = new MutationObserver(() => {
    if (hops.appCommit === undefined && document.getElementById('root')?.firstChild) hops.appCommit = now();
    if (!document.querySelector('[data-testid="node-1"]')) return;
    seen.disconnect();
    hops.card = now();
    requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = () => { hops.painted = now(); performance.mark('ndbtop-cold-painted'); hops.resources = performance.getEntriesByType('resource').map((e) => ({ name: e.name, end: performance.timeOrigin + e.responseEnd, bytes: e.encodedBodySize })); }; c.port2.postMessage(0); });
  });
  document.addEventListener('DOMContentLoaded', () => seen.observe(document.body, { subtree: true, childList: true }));
})()`;

/** Epoch ms of each hop of one cold load; absent hops were not seen. */
interface ColdHops {
  /** The stack (simulator, engine, serve) asked to start. */
  started: number;
  listening: number;
  engineSnapshot?: number;
  navigation: number;
  htmlEnd: number;
  scriptsEnd: number;
  wsCreated?: number;
  wsOpen?: number;
  firstFrame?: number;
  message?: number;
  store?: number;
  appCommit?: number;
  card?: number;
  painted?: number;
}

const HOPS: Array<[keyof ColdHops, keyof ColdHops, string]> = [
  ['listening', 'navigation', 'listening → navigation start'],
  ['navigation', 'htmlEnd', 'index.html fetched'],
  ['htmlEnd', 'scriptsEnd', 'script chunks fetched'],
  ['scriptsEnd', 'wsCreated', 'chunks → entry ran (WS made)'],
  ['wsCreated', 'wsOpen', 'WebSocket open'],
  ['wsOpen', 'firstFrame', 'open → first frame'],
  ['firstFrame', 'message', 'first frame → snapshot frame'],
  ['message', 'store', 'parse, check; stored next task'],
  ['store', 'card', 'store → node-1 in DOM'],
  ['card', 'painted', 'DOM → frame shown'],
];

interface ColdRun {
  hops: ColdHops;
  /** The page's main-thread tasks until the card was painted: wall and CPU ms. */
  tasks: MainTask[];
  /** The task that stored the first snapshot (and React's render of it, if React was mounted by then). */
  snapshotTask?: { wall: number; cpu: number };
  /** …and until every tile was there and LOAD_TAIL_MS more. */
  loadTasks: MainTask[];
  scripts: number[];
  messageBytes: number;
}

async function coldRun(browser: Browser, dir: string): Promise<ColdRun> {
  // The operator's browser is already running when they open the URL: the fresh context (an empty cache) and its
  // tab are made before serve starts, so what is timed is the page, not Chromium making a profile.
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(PROBE);
    const cdp = await context.newCDPSession(page);
    let started = 0;
    let listening = 0;
    let engineSnapshot: number | undefined;
    // Set inside the traced run; a holder, since the compiler cannot see a closure assign a local.
    const held: { stack?: Stack } = {};
    try {
      // Traced from before the stack starts, so starting the trace is not timed either.
      const events = await traceAll(
        cdp,
        async () => {
          started = performance.timeOrigin + performance.now();
          // The engine's first snapshot with nodes in it: whether serve said "listening" before it had anything to show.
          const stack = (held.stack = await startStack(dir, { pollIntervalMs: POLL_MS, simulator: CLUSTER }, (engine) => {
            const off = engine.subscribe((m) => {
              const nodes = m.type === 'snapshot' ? m.snapshot.nodes.length : m.type === 'delta' ? (m.delta.nodes?.length ?? 0) : 0;
              if (nodes > 0 && engineSnapshot === undefined) {
                engineSnapshot = performance.timeOrigin + performance.now();
                queueMicrotask(off);
              }
            });
          }));
          listening = performance.timeOrigin + performance.now();
          await page.goto(stack.url);
          // Polled from outside: the page's CSP forbids the eval waitForFunction would need.
          for (let i = 0; i < 1200 && !(await page.evaluate('window.__cold.painted !== undefined')); i++) await new Promise((r) => setTimeout(r, 50));
          // The rest of the load: every data node's tile, then a few seconds of pushes.
          await waitInPage(page, `document.querySelectorAll(${JSON.stringify(GRID_NODES)}).length >= ${CLUSTER.dataNodes}`, 60_000);
          await new Promise((r) => setTimeout(r, LOAD_TAIL_MS));
        },
        `${TIMELINE},blink.user_timing`,
      );
      const inPage = (await page.evaluate(`({
        ...window.__cold,
        navigation: performance.timeOrigin,
        htmlEnd: performance.timeOrigin + performance.getEntriesByType('navigation')[0].responseEnd,
      })`)) as Omit<ColdHops, 'listening' | 'started' | 'scriptsEnd'> & { resources: Array<{ name: string; end: number; bytes: number }>; messageBytes?: number };
      const { resources, messageBytes, ...hops } = inPage;
      // What index.html names (the entry, its modulepreloads, the styles) as served, not what scripts added later.
      const html = await (await fetch(held.stack?.url ?? 'http://127.0.0.1:0/')).text();
      const named = new Set([...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="\.\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]));
      const loaded = resources.filter((r) => named.has(new URL(r.name).pathname.slice(1)));
      const scripts = loaded.filter((r) => r.name.endsWith('.js')).map((r) => r.bytes);
      const scriptsEnd = Math.max(0, ...loaded.map((r) => r.end));
      // The tasks up to the one that saw the frame painted (its mark), not the grid's later rows.
      const painted = events.find((e) => e.name === 'ndbtop-cold-painted');
      const mark = painted?.ts ?? Infinity;
      // The page's own main thread (the one that made the mark): a renderer of an earlier run, closing, is not it.
      const own = onMainThread(events).filter((e) => painted === undefined || (e.pid === painted.pid && e.tid === painted.tid));
      const untilPaint = own.filter((e) => e.ts <= mark);
      // The task that stored the first snapshot: the one around the store's mark.
      const stored = events.find((e) => e.name === 'ndbtop-cold-store')?.ts ?? -1;
      const snapshotTask = untilPaint.find((e) => e.name === 'RunTask' && e.ts <= stored && stored <= e.ts + (e.dur ?? 0));
      return { hops: { ...hops, scriptsEnd, started, listening, ...(engineSnapshot !== undefined ? { engineSnapshot } : {}) }, tasks: mainTasks(untilPaint), loadTasks: mainTasks(own), snapshotTask: mainTasks(snapshotTask ? [snapshotTask] : [])[0], scripts, messageBytes: messageBytes ?? 0 };
    } finally {
      await held.stack?.close();
    }
  } finally {
    await context.close();
  }
}

const p50 = (xs: readonly number[]): string => `${fmt(percentile(xs, 50), 0)}`;

/** Runs RUNS cold loads, each on a fresh stack (alternating with BENCH_COLD_COMPARE's build if set), and prints the median of each hop. */
export async function coldFirstPaint(dir: string): Promise<void> {
  const builds: Array<[string, string]> = COMPARE_DIR ? [[`compared (${COMPARE_DIR})`, COMPARE_DIR], ['this build', dir]] : [['', dir]];
  const runs = new Map<string, ColdRun[]>(builds.map(([name]) => [name, []]));
  const browser = await launchChromium();
  try {
    for (let i = 0; i < RUNS; i++) for (const [name, built] of builds) runs.get(name)?.push(await coldRun(browser, built));
  } finally {
    await browser.close();
  }
  for (const [name, of] of runs) report(name, of);
}

function report(name: string, runs: readonly ColdRun[]): void {
  const totals = runs.map((r) => (r.hops.painted ?? NaN) - r.hops.listening);
  const first = runs[0];
  console.log(
    `  cold first paint${name ? ` (${name})` : ''}  p50 ${p50(totals)} ms (${totals.map((t) => fmt(t, 0)).join(' ')}) from serve listening to the first node card painted (goal <= 1000 ms); ${runs.length} runs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${availableParallelism()} cores`,
  );  if (first) console.log(`    ${first.scripts.length} script chunks, ${fmt(first.scripts.reduce((a, b) => a + b, 0) / 1024, 0)} KB fetched; snapshot frame ${fmt(first.messageBytes / 1024, 0)} KB`);
  const engineLead = runs.map((r) => (r.hops.engineSnapshot ?? NaN) - r.hops.listening);
  const fromStart = runs.map((r) => (r.hops.painted ?? NaN) - r.hops.started);
  const startToListen = runs.map((r) => r.hops.listening - r.hops.started);
  console.log(`    from the stack's start (simulator, engine, serve) to painted: p50 ${p50(fromStart)} ms; start → listening p50 ${p50(startToListen)} ms`);
  console.log(`    engine's first snapshot with nodes, after listening: p50 ${p50(engineLead)} ms (negative: before)`);
  console.log(`    per hop, ms p50 (each run):`);
  for (const [from, to, name] of HOPS) {
    const d = runs.map((r) => (r.hops[to] ?? NaN) - (r.hops[from] ?? NaN));
    console.log(`      ${name.padEnd(30)} ${p50(d).padStart(5)}  (${d.map((v) => fmt(v, 0)).join(' ')})`);
  }
  const cpu = runs.map((r) => r.tasks.reduce((a, t) => a + t.cpu, 0));
  const longestCpu = runs.map((r) => Math.max(0, ...r.tasks.map((t) => t.cpu)));
  const longestWall = runs.map((r) => Math.max(0, ...r.tasks.map((t) => t.wall)));
  const overCpu = runs.map((r) => r.tasks.filter((t) => t.cpu > 50).length);
  console.log(
    `    main thread until painted: CPU p50 ${p50(cpu)} ms in tasks; longest task CPU p50 ${p50(longestCpu)} ms (${longestCpu.map((v) => fmt(v, 0)).join(' ')}), wall p50 ${p50(longestWall)} ms; tasks over 50 ms CPU ${overCpu.join(' ')}`,
  );
  const snap = runs.map((r) => r.snapshotTask);
  console.log(`    the task that stored the first snapshot: CPU/wall ms ${snap.map((t) => (t ? `${fmt(t.cpu, 0)}/${fmt(t.wall, 0)}` : 'n/a')).join(' ')}`);
  const heaviest = runs.map((r) => [...r.tasks].sort((a, b) => b.cpu - a.cpu).slice(0, 4).map((t) => `${fmt(t.cpu, 0)}/${fmt(t.wall, 0)}`).join(' '));
  console.log(`    heaviest tasks CPU/wall ms, per run: ${heaviest.join(' | ')}`);
  const worst = runs.flatMap((r) => r.loadTasks).sort((a, b) => b.cpu - a.cpu).slice(0, 6);
  console.log(`    the whole load's heaviest tasks, all runs (CPU/wall ms: what ran, CPU ms):\n${worst.map((t) => `      ${fmt(t.cpu, 0)}/${fmt(t.wall, 0)}: ${t.what}`).join('\n')}`);
  const long = runs.map((r) => r.loadTasks.filter((t) => t.wall > 50));
  const mostCpu = runs.map((r) => Math.max(0, ...r.loadTasks.map((t) => t.cpu)));
  console.log(
    `    whole load (every tile, then ${LOAD_TAIL_MS / 1000} s): long tasks (wall > 50 ms) ${long.map((l) => l.length).join(' ')}, longest wall ${long.map((l) => fmt(Math.max(0, ...l.map((t) => t.wall)), 0)).join(' ')} ms; most CPU in one task p50 ${p50(mostCpu)} ms (${mostCpu.map((v) => fmt(v, 0)).join(' ')}); tasks over 50 ms CPU ${runs.map((r) => r.loadTasks.filter((t) => t.cpu > 50).length).join(' ')}`,
  );
}
