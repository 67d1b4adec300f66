/**
 * The engine alone in its own process for `engine.bench.ts`: watches the cluster at argv[2] with an hour of
 * history for each of its argv[4] data nodes, measures itself over argv[3] seconds of the benchmark load after a warm-up, and
 * prints one JSON line of figures. Bundled to plain JavaScript before it runs, so its RSS is the engine's own,
 * not a TypeScript loader's.
 */
import { performance } from 'node:perf_hooks';
import { createEngine } from '../electron/engine/index.js';
import { fillHistory } from './renderer/hour-of-history.js';

const HISTORY_SECONDS = 3600;
const WARM_UP_MS = 5000;

export interface EngineFigures {
  historyPoints: number;
  wallMs: number;
  cpuMs: number;
  /** Of cpuMs, the kernel's share (socket reads and writes, timers). */
  systemMs: number;
  /** The main thread's busy time (event loop utilisation): cpuMs less this is V8's helper threads (GC, compilers) and the kernel. */
  loopBusyMs: number;
  peakRss: number;
  /** After a full GC: what the engine holds, as opposed to what awaits collection. */
  live: NodeJS.MemoryUsage;
  pushes: number;
  deltas: number;
  deltaBytes: number;
  deltaNodes: number;
  reads: number;
}

async function main(connectstring: string, seconds: number, dataNodes: number): Promise<EngineFigures> {
  const engine = await createEngine({ host: 'serve', clusters: [{ connectstring }], historySeconds: HISTORY_SECONDS });
  // Data nodes are the first ids of the simulator's layout; the hour goes in before the engine's first tick.
  const historyPoints = fillHistory(engine, Array.from({ length: dataNodes }, (_, i) => i + 1), HISTORY_SECONDS);
  const counts = { pushes: 0, deltas: 0, deltaBytes: 0, deltaNodes: 0 };
  const unsubscribe = engine.subscribe((m) => {
    counts.pushes++;
    if (m.type !== 'delta') return;
    // What a WebSocket client is sent for it (the frame adds a few bytes around the message).
    counts.deltas++;
    counts.deltaBytes += JSON.stringify(m).length;
    counts.deltaNodes += m.delta.nodes?.length ?? 0;
  });
  await new Promise((r) => setTimeout(r, WARM_UP_MS));
  const start = { ...counts };
  const cpu0 = process.cpuUsage();
  const elu0 = performance.eventLoopUtilization();
  const t0 = performance.now();
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 500);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  clearInterval(sampler);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const elu = performance.eventLoopUtilization(elu0);
  const snapshot = await engine.handlers.getSnapshot({});
  (globalThis as { gc?: () => void }).gc?.();
  const live = process.memoryUsage();
  unsubscribe();
  await engine.close();
  return {
    historyPoints,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    systemMs: cpu.system / 1000,
    loopBusyMs: elu.active,
    peakRss,
    live,
    pushes: counts.pushes - start.pushes,
    deltas: counts.deltas - start.deltas,
    deltaBytes: counts.deltaBytes - start.deltaBytes,
    deltaNodes: counts.deltaNodes - start.deltaNodes,
    reads: snapshot.rates?.reads ?? 0,
  };
}

const [connectstring, seconds, dataNodes] = process.argv.slice(2);
if (connectstring && seconds && dataNodes) process.stdout.write(`${JSON.stringify(await main(connectstring, Number(seconds), Number(dataNodes)))}\n`);
