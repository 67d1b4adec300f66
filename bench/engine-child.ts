/**
 * The engine alone in its own process for `engine.bench.ts`: watches the cluster at argv[2] with an hour of
 * history for each of its argv[4] data nodes, measures itself over argv[3] seconds of the benchmark load after a warm-up, and
 * prints one JSON line of figures. Bundled to plain JavaScript before it runs, so its RSS is the engine's own,
 * not a TypeScript loader's.
 */
import { readFileSync } from 'node:fs';
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
  /**
   * The main thread's own CPU time (user + kernel, /proc/self/task/<pid>/stat); cpuMs less this is the other
   * threads' (V8's garbage collector and compilers, libuv's pool). Event-loop utilisation would not do: it is wall
   * time, and on a loaded machine it counts the time the thread waited for a core (it read 8–12 % for 1.9 % of CPU).
   */
  mainThreadMs: number;
  peakRss: number;
  /** After a full GC: what the engine holds, as opposed to what awaits collection. */
  live: NodeJS.MemoryUsage;
  pushes: number;
  deltas: number;
  deltaBytes: number;
  deltaNodes: number;
  reads: number;
}

/** utime + stime of the main thread (its task id is the process id), fields 14 and 15, in 100 Hz clock ticks. */
function mainThreadCpuMs(): number {
  const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
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
  const main0 = mainThreadCpuMs();
  const t0 = performance.now();
  let peakRss = 0;
  // rss() alone: the full memoryUsage() walks the heap's spaces, work of the bench's that would count as the engine's.
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 500);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  clearInterval(sampler);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const mainThreadMs = mainThreadCpuMs() - main0;
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
    mainThreadMs,
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
