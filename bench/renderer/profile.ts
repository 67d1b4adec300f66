/**
 * What the renderer's long tasks are made of (`npm run bench profile`; prints, asserts nothing). The bench's
 * 255-node cluster with an hour of history, served to Chromium with an unminified build, goes through load, a
 * switch to the Throughput view's hour, its steady state, a window switch and a switch back to Nodes, under the
 * DevTools protocol's tracing (every task of the page's main thread and what ran inside it: script, style, layout,
 * paint, GC) and V8's sampling profiler (which functions the script time went to). Per phase it prints each long
 * task (> 50 ms) and, summed over them, self time by trace event and the JS functions with the most self and
 * inclusive time.
 */
import type { CDPSession } from 'playwright-core';
import { build } from 'vite';
import { fileURLToPath } from 'node:url';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GRID_NODES, launchChromium, startStack, waitInPage } from '../../renderer/e2e/harness.js';
import { fillHistory } from './hour-of-history.js';
import { TIMELINE, traceMainThread, type TraceEvent } from './trace.js';

const DATA_NODES = 144;
const LONG_US = 50_000;
/** PROFILE_JS=0: tracing only, so task times are not inflated by the sampling profiler. */
const JS_PROFILE = process.env.PROFILE_JS !== '0';
/** PROFILE_LOAD_ONLY=1: the page load only (the phase the cold-paint and page-load figures are about). */
const LOAD_ONLY = process.env.PROFILE_LOAD_ONLY === '1';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export async function unminifiedBuild(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-profile-'));
  const configFile = fileURLToPath(new URL('../../renderer/vite.config.ts', import.meta.url));
  await build({ configFile, logLevel: 'warn', build: { outDir: dir, emptyOutDir: true, minify: false, sourcemap: false } });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

async function record(cdp: CDPSession, run: () => Promise<void>): Promise<{ main: TraceEvent[]; profile: Profile }> {
  // The profiler first: starting it is itself a long task, kept out of the trace.
  if (JS_PROFILE) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const main = await traceMainThread(cdp, run, `${TIMELINE},v8,blink`);
  const { profile } = JS_PROFILE ? ((await cdp.send('Profiler.stop')) as unknown as { profile: Profile }) : { profile: { nodes: [], startTime: 0, samples: [], timeDeltas: [] } };
  return { main, profile };
}

/** Self time (µs) of each trace event name inside [from, to) on one thread: nested events subtract from their parent. */
function selfTimes(events: readonly TraceEvent[], from: number, to: number, into: Map<string, number>): void {
  const inside = events.filter((e) => e.ts >= from && e.ts < to).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const stack: Array<{ name: string; end: number }> = [];
  for (const e of inside) {
    while (stack.length > 0 && (stack[stack.length - 1]?.end ?? 0) <= e.ts) stack.pop();
    const dur = e.dur ?? 0;
    const parent = stack[stack.length - 1];
    if (parent) into.set(parent.name, (into.get(parent.name) ?? 0) - dur);
    into.set(e.name, (into.get(e.name) ?? 0) + dur);
    stack.push({ name: e.name, end: e.ts + dur });
  }
}

function jsTimes(profile: Profile, ranges: ReadonlyArray<[number, number]>): { self: Map<string, number>; total: Map<string, number> } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop() ?? ''}:${n.callFrame.lineNumber + 1}`;
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    t += dt;
    const next = profile.timeDeltas[i + 1] ?? 0;
    if (!ranges.some(([a, b]) => t >= a && t < b)) continue;
    let node = byId.get(profile.samples[i] ?? 0);
    if (!node) continue;
    self.set(label(node), (self.get(label(node)) ?? 0) + next);
    const seen = new Set<string>();
    while (node) {
      const l = label(node);
      if (!seen.has(l)) total.set(l, (total.get(l) ?? 0) + next);
      seen.add(l);
      node = byId.get(parent.get(node.id) ?? -1);
    }
  }
  return { self, total };
}

function top(map: ReadonlyMap<string, number>, n: number, skip: (k: string) => boolean = () => false): string {
  return [...map]
    .filter(([k]) => !skip(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `      ${(v / 1000).toFixed(1).padStart(8)} ms  ${k}`)
    .join('\n');
}

/** Traces and profiles `run`, then prints its long and heavy tasks attributed (trace events, JS functions, components). */
export async function profilePhase(cdp: CDPSession, name: string, run: () => Promise<void>): Promise<void> {
  const { main, profile } = await record(cdp, run);
  const tasks = main.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > LONG_US);
  // Wall time is what the goal counts, CPU time what the task itself cost (the machine is shared).
  const heavy = main.filter((e) => e.name === 'RunTask' && (e.tdur ?? 0) > 16_000);
  const cpu = heavy.map((t) => (t.tdur ?? 0) / 1000).sort((a, b) => b - a);
  console.log(`-- ${name}: ${tasks.length} long tasks (wall/cpu ms) ${tasks.map((t) => `${((t.dur ?? 0) / 1000).toFixed(0)}/${((t.tdur ?? 0) / 1000).toFixed(0)}`).join(' ')}`);
  console.log(`    tasks over 16 ms of CPU: ${cpu.length}, CPU ms ${cpu.map((v) => v.toFixed(0)).join(' ')}`);
  const everywhere = new Map<string, number>();
  for (const t of main.filter((e) => e.name === 'RunTask')) selfTimes(main, t.ts, t.ts + (t.dur ?? 0), everywhere);
  console.log(`    whole phase, self time by trace event:\n${top(everywhere, 8)}`);
  // Under load wall time says little: each task over 16 ms of CPU is attributed as well as each long one.
  const attributed = main.filter((e) => e.name === 'RunTask' && ((e.dur ?? 0) > LONG_US || (e.tdur ?? 0) > 16_000));
  if (attributed.length === 0) return;
  const self = new Map<string, number>();
  for (const t of attributed) selfTimes(main, t.ts, t.ts + (t.dur ?? 0), self);
  console.log(`    trace events, self time summed over the long and heavy tasks:\n${top(self, 12)}`);
  const js = jsTimes(
    profile,
    attributed.map((t) => [t.ts, t.ts + (t.dur ?? 0)]),
  );
  console.log(`    JS self:\n${top(js.self, 18)}`);
  const component = (k: string) => /^[A-Z]/.test(k);
  console.log(`    components, inclusive:\n${top(js.total, 25, (k) => !component(k))}`);
  console.log(`    JS inclusive (callers):\n${top(js.total, 25, (k) => k.startsWith('(root)') || k.startsWith('(program)'))}`);
  for (const t of attributed) {
    const one = jsTimes(profile, [[t.ts, t.ts + (t.dur ?? 0)]]);
    const parts = [...one.total].filter(([k]) => component(k)).sort((a, b) => b[1] - a[1]).slice(0, 6);
    const events = new Map<string, number>();
    selfTimes(main, t.ts, t.ts + (t.dur ?? 0), events);
    const name = ([k, v]: [string, number]) => `${k.split(' ')[0]} ${(v / 1000).toFixed(0)}`;
    console.log(`    task ${((t.dur ?? 0) / 1000).toFixed(0)}/${((t.tdur ?? 0) / 1000).toFixed(0)} ms wall/CPU: ${parts.map(name).join(', ')}`);
    console.log(`        self: ${[...one.self].sort((a, b) => b[1] - a[1]).slice(0, 6).map(name).join(', ')}; events: ${[...events].sort((a, b) => b[1] - a[1]).slice(0, 5).map(name).join(', ')}`);
  }
}

export async function profileRenderer(): Promise<void> {
  console.log('== renderer profile (long tasks attributed)');
  const built = await unminifiedBuild();
  const stack = await startStack(
    built.dir,
    { pollIntervalMs: 100, historySeconds: 3600, simulator: { scenario: 'benchmark', dataNodes: DATA_NODES, mgmNodes: 2, apiNodes: 109, connectedApiNodes: 40, replicas: 2 } },
    (engine) => fillHistory(engine, Array.from({ length: DATA_NODES }, (_, i) => i + 1), 3600),
  );
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    const cdp = await page.context().newCDPSession(page);
    const settle = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
    await profilePhase(cdp, 'page load to every tile', async () => {
      await page.goto(stack.url);
      await waitInPage(page, `document.querySelectorAll(${JSON.stringify(GRID_NODES)}).length >= ${DATA_NODES}`, 60_000);
      await settle(3000);
    });
    if (LOAD_ONLY) return;
    await profilePhase(cdp, 'switch to throughput, 1 h (mount)', async () => {
      await page.evaluate(`window.__ndbtopStore.setUi({ window: '1h' })`);
      await page.keyboard.press('3');
      await waitInPage(page, `Number(document.querySelector('[data-testid="throughput-chart"]')?.dataset.points) > 100`, 60_000);
      await settle(2000);
    });
    await profilePhase(cdp, 'throughput 1 h steady, 10 s', () => settle(10_000));
    await profilePhase(cdp, 'window 1 h → 5 min → 1 h', async () => {
      await page.click('button:text-is("5m")');
      await settle(2000);
      await page.click('button:text-is("1h")');
      await settle(3000);
    });
    await profilePhase(cdp, 'switch to nodes', async () => {
      await page.keyboard.press('1');
      await settle(3000);
    });
  } finally {
    await browser.close();
    await stack.close();
    await built.remove();
  }
}
