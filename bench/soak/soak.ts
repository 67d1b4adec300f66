import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import { createEngine } from '../../electron/engine/create-engine.js';
import { isRendererBuilt, rendererDistDir } from '../../electron/serve/renderer-dir.js';
import { startServeServer } from '../../electron/serve/serve-server.js';
import { SCENARIO_NAMES } from '../../native-mgm/sim/index.js';
import { freePortPair, SimProcess } from '../../electron/engine/test/faults/sim-process.js';
import { buildRenderer, launchChromium, waitInPage } from '../../renderer/e2e/harness.js';
import { trend, type Trend } from './trend.js';

export interface SoakOptions {
  durationMs: number;
  speed: number;
  sampleMs: number;
  /** Fraction of the run before the trend is taken: rings and logs fill up first. */
  warmUp: number;
  /** Growth past this fraction after warm-up fails the run. */
  maxGrowth: number;
  log: (line: string) => void;
}

interface Sample {
  t: number;
  heapMb: number;
  rssMb: number;
  lagP99Ms: number;
  lagMaxMs: number;
  pushesPerS: number;
  pageHeapMb: number;
  scenario: string;
}

export interface SoakResult {
  samples: Sample[];
  trends: Record<'heapMb' | 'rssMb' | 'pageHeapMb', Trend>;
  failures: string[];
  cycles: number;
}

/** 144 data nodes, 2 management servers and 109 API slots: the 255 node ids a cluster can have. */
const CLUSTER = ['--data-nodes', '144', '--replicas', '2', '--mgm-nodes', '2', '--api-nodes', '109'];

/**
 * The simulator at 255 nodes through every scenario in a loop (each a fresh `ndbtop sim` process on the same two
 * ports, so the engine also rides a management server restart per scenario, and its load is not in our figures), with `serve` and one headless Chromium page
 * attached; engine heap/RSS, event-loop lag, push rate and page JS heap are sampled (after a forced GC on both
 * sides, when node runs with --expose-gc) and their trend after warm-up is checked.
 */
export async function soak(o: SoakOptions): Promise<SoakResult> {
  const first = await freePortPair();
  const ports = [first, first + 1];
  let sim: SimProcess | null = null;
  const startScenario = async (i: number): Promise<string> => {
    const scenario = SCENARIO_NAMES[i % SCENARIO_NAMES.length] ?? 'steady';
    await sim?.kill();
    sim = new SimProcess(first, [...CLUSTER, '--scenario', scenario, '--speed', String(o.speed), '--seed', String(i + 1)]);
    await sim.start();
    return scenario;
  };
  let scenario = await startScenario(0);
  // The history ring is kept short so that it is full before warm-up ends: its filling is not a leak.
  const engine = await createEngine({ host: 'serve', clusters: [{ name: 'soak', connectstring: ports.map((p) => `127.0.0.1:${p}`).join(',') }], simulator: false, historySeconds: 60 });
  const built = isRendererBuilt(rendererDistDir()) ? null : await buildRenderer();
  const server = await startServeServer({ engine, staticDir: built?.dir ?? rendererDistDir(), host: '127.0.0.1', port: 0 });
  const browser = await launchChromium();
  const page: Page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  let pushes = 0;
  const off = engine.subscribe(() => (pushes += 1));
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const samples: Sample[] = [];
  const started = Date.now();
  const sliceMs = Math.max(10_000, Math.min(600_000, o.durationMs / 12));
  let cycles = 0;
  try {
    await page.goto(server.url);
    await waitInPage(page, `document.querySelectorAll('[data-testid^="node-"]').length > 100`, 120_000);
    let nextScenarioAt = started + sliceMs;
    let i = 0;
    let lastSampleAt = Date.now();
    while (Date.now() - started < o.durationMs) {
      await new Promise((r) => setTimeout(r, o.sampleMs));
      if (Date.now() >= nextScenarioAt) {
        i += 1;
        if (i % SCENARIO_NAMES.length === 0) cycles += 1;
        scenario = await startScenario(i);
        nextScenarioAt = Date.now() + sliceMs;
      }
      // Lag first: the forced GCs below block this loop and must not count as the engine's lag.
      const [lagP99Ms, lagMaxMs] = [lag.percentile(99) / 1e6, lag.max / 1e6];
      const now = Date.now();
      const pushesPerS = (pushes * 1000) / (now - lastSampleAt);
      const gc = (globalThis as { gc?: () => void }).gc;
      gc?.();
      // Read at once: anything awaited after the GC lets new garbage in.
      const mem = process.memoryUsage();
      await cdp.send('HeapProfiler.collectGarbage');
      const metrics = new Map((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
      const s: Sample = {
        t: now - started,
        heapMb: mem.heapUsed / 2 ** 20,
        rssMb: mem.rss / 2 ** 20,
        lagP99Ms,
        lagMaxMs,
        pushesPerS,
        pageHeapMb: (metrics.get('JSHeapUsedSize') ?? 0) / 2 ** 20,
        scenario,
      };
      lag.reset();
      pushes = 0;
      lastSampleAt = Date.now();
      samples.push(s);
      o.log(`  ${(s.t / 1000).toFixed(0).padStart(6)} s  ${s.scenario.padEnd(15)} heap ${s.heapMb.toFixed(1)} MB  rss ${s.rssMb.toFixed(0)} MB  lag p99 ${s.lagP99Ms.toFixed(0)} ms (max ${s.lagMaxMs.toFixed(0)})  pushes ${s.pushesPerS.toFixed(1)}/s  page heap ${s.pageHeapMb.toFixed(1)} MB`);
    }
  } finally {
    lag.disable();
    off();
    await browser.close();
    await server.close();
    await engine.close();
    await (sim as SimProcess | null)?.kill();
    await built?.remove();
  }
  const after = samples.filter((s) => s.t >= o.durationMs * o.warmUp);
  const of = (k: 'heapMb' | 'rssMb' | 'pageHeapMb'): Trend => trend(after.map((s) => ({ t: s.t, v: s[k] })));
  const trends = { heapMb: of('heapMb'), rssMb: of('rssMb'), pageHeapMb: of('pageHeapMb') };
  const failures = Object.entries(trends)
    .filter(([, tr]) => tr.growth > o.maxGrowth)
    .map(([k, tr]) => `${k} grew ${(tr.growth * 100).toFixed(1)} % after warm-up (${tr.start.toFixed(1)} -> ${tr.end.toFixed(1)})`);
  if (after.length < 3) failures.push(`only ${after.length} samples after warm-up`);
  return { samples, trends, failures, cycles };
}
