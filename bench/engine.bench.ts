import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { PushMessage } from '../electron/contract/channels.js';
import type { NodeStatus } from '../electron/contract/node.js';
import { createEngine } from '../electron/engine/index.js';
import { startSimulator } from '../native-mgm/sim/index.js';
import { fillHistory } from './renderer/hour-of-history.js';
import { fmt, percentile } from './stats.js';

const DATA_NODES = 144;
const HISTORY_SECONDS = 3600;

/** Keeps each node's status as the pushes describe it, and tells a waiter when a node reaches a status. */
function statusWatcher() {
  const status = new Map<number, NodeStatus>();
  let waiter: { id: number; want: NodeStatus; resolve: (at: number) => void } | null = null;
  const onPush = (m: PushMessage): void => {
    const at = performance.now();
    const nodes = m.type === 'snapshot' ? m.snapshot.nodes : m.type === 'delta' ? (m.delta.nodes ?? []) : [];
    for (const n of nodes) status.set(n.nodeId, n.status);
    if (waiter && status.get(waiter.id) === waiter.want) {
      const w = waiter;
      waiter = null;
      w.resolve(at);
    }
  };
  const until = (id: number, want: NodeStatus): Promise<number> =>
    status.get(id) === want ? Promise.resolve(performance.now()) : new Promise((resolve) => (waiter = { id, want, resolve }));
  return { onPush, until };
}

/** From the first event the simulator emits about a failure to the engine's push that shows the node down. */
async function eventToPush(): Promise<void> {
  const sim = await startSimulator({ dataNodes: 8, replicas: 2, scenario: 'steady', speed: 20 });
  const engine = await createEngine({ host: 'serve', clusters: [{ connectstring: sim.connectstring }], pollIntervalMs: 1000 });
  const watcher = statusWatcher();
  const unsubscribe = engine.subscribe(watcher.onPush);
  const samples: number[] = [];
  try {
    const ids = [...sim.model.data.keys()];
    for (const id of ids) await watcher.until(id, 'STARTED');
    for (let round = 0; round < 24; round++) {
      const id = ids[round % ids.length] as number;
      let firstEventAt = 0;
      const off = sim.model.onEvent(() => (firstEventAt ||= performance.now()));
      const shown = watcher.until(id, 'NO_CONTACT');
      sim.model.failNode(id, { autoRestart: true });
      const pushedAt = await shown;
      off();
      samples.push(pushedAt - firstEventAt);
      await watcher.until(id, 'STARTED');
      // Failures a moment apart, not in the same 200 ms as the last node coming back (which shares the urgent lane).
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    unsubscribe();
    await engine.close();
    await sim.close();
  }
  console.log(`node failure: first simulator event -> engine push showing NO_CONTACT (${samples.length} failures, poll interval 1000 ms)`);
  console.log(`  p50 ${fmt(percentile(samples, 50))} ms  p95 ${fmt(percentile(samples, 95))} ms  max ${fmt(Math.max(...samples))} ms`);
  console.log(`  ratio to the poll interval: p95 ${fmt(percentile(samples, 95) / 1000, 3)}x (event-driven refresh, not the next poll)`);
}

function childCpuMs(pid: number): number {
  // utime + stime, fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 Hz on Linux).
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The engine watching 255 nodes under the benchmark load, with the simulator in its own process beside it. */
async function largeClusterCost(seconds: number): Promise<void> {
  const cli = fileURLToPath(new URL('../electron/cli/ndbtop.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', cli, 'sim', '--port', '0', '--data-nodes', String(DATA_NODES), '--mgm-nodes', '2', '--api-nodes', '109', '--scenario', 'benchmark'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const connectstring = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /connectstring: (\S+)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      child.on('exit', () => reject(new Error(`simulator exited: ${out}`)));
    });
    const engine = await createEngine({ host: 'serve', clusters: [{ connectstring }], historySeconds: HISTORY_SECONDS });
    // Data nodes are the first ids of the simulator's layout; the hour goes in before the engine's first tick.
    const historyPoints = fillHistory(engine, Array.from({ length: DATA_NODES }, (_, i) => i + 1), HISTORY_SECONDS);
    let pushes = 0;
    let deltaBytes = 0;
    let deltaNodes = 0;
    let deltas = 0;
    const unsubscribe = engine.subscribe((m) => {
      pushes++;
      if (m.type !== 'delta') return;
      // What a WebSocket client is sent for it (the frame adds a few bytes around the message).
      deltas++;
      deltaBytes += JSON.stringify(m).length;
      deltaNodes += m.delta.nodes?.length ?? 0;
    });
    await new Promise((r) => setTimeout(r, 3000));
    const cpu0 = process.cpuUsage();
    const simCpu0 = childCpuMs(child.pid ?? 0);
    const t0 = performance.now();
    const pushes0 = pushes;
    const [deltas0, deltaBytes0, deltaNodes0] = [deltas, deltaBytes, deltaNodes];
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 500);
    await new Promise((r) => setTimeout(r, seconds * 1000));
    clearInterval(sampler);
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const engineCpuMs = (cpu.user + cpu.system) / 1000;
    const simCpuMs = childCpuMs(child.pid ?? 0) - simCpu0;
    const snapshot = await engine.handlers.getSnapshot({});
    const heap = process.memoryUsage().heapUsed;
    // What is live, not what awaits collection: the figure to compare with history's typed arrays.
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
    const live = process.memoryUsage();
    unsubscribe();
    await engine.close();
    const load = loadavg().map((l) => l.toFixed(2)).join(' ');
    console.log(`engine watching 255 nodes (144 data, 4 TC + 4 LQH instances each) under the benchmark load, ${seconds} s, ${historyPoints} s of history for every data node (load average ${load} on ${availableParallelism()} cores)`);
    console.log(`  engine CPU      ${fmt((engineCpuMs / wallMs) * 100, 1)} % of one core (goal <= 5 %)   (simulator beside it: ${fmt((simCpuMs / wallMs) * 100, 1)} %)`);
    console.log(`  ratio engine/simulator CPU ${fmt(engineCpuMs / Math.max(1, simCpuMs))}x`);
    console.log(`  memory          heap ${fmt(heap / 2 ** 20, 1)} MiB (live after GC ${fmt(live.heapUsed / 2 ** 20, 1)} MiB + ${fmt(live.arrayBuffers / 2 ** 20, 1)} MiB typed arrays), RSS peak ${fmt(peakRss / 2 ** 20, 1)} MiB, after GC ${fmt(live.rss / 2 ** 20, 1)} MiB (goal <= 150 MiB; includes tsx and the bench)`);
    const n = deltas - deltas0;
    console.log(`  deltas          ${n} · ${fmt((deltaBytes - deltaBytes0) / Math.max(1, n), 0)} bytes and ${fmt((deltaNodes - deltaNodes0) / Math.max(1, n), 1)} nodes each on average`);
    console.log(`  pushes          ${fmt(((pushes - pushes0) / wallMs) * 1000, 1)} per second (cap 10); cluster reads/s now ${fmt(snapshot.rates?.reads ?? 0, 0)}`);
  } finally {
    child.kill('SIGTERM');
  }
}

export async function benchEngine(): Promise<void> {
  console.log('== engine');
  await eventToPush();
  await largeClusterCost(Number(process.env.BENCH_SECONDS ?? 60));
}
