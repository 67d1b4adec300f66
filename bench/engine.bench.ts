import { spawn } from 'node:child_process';
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { PushMessage } from '../electron/contract/schemas/channels.js';
import type { NodeStatus } from '../electron/contract/schemas/node.js';
import { createEngine } from '../electron/engine/index.js';
import { startSimulator } from '../native-mgm/sim/index.js';
import type { EngineFigures } from './engine-child.js';
import { fmt, percentile } from './stats.js';
import { atMost, noted, type Figure } from './table.js';

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
async function eventToPush(): Promise<Figure> {
  const sim = await startSimulator({ dataNodes: 8, replicas: 2, scenario: 'steady', speed: 20 });
  const engine = await createEngine({ host: 'serve', clusters: [{ connectstring: sim.connectstring }], pollIntervalMs: 1000 });
  const watcher = statusWatcher();
  const unsubscribe = engine.subscribe(watcher.onPush);
  const samples: number[] = [];
  try {
    const ids = [...sim.model.data.keys()];
    for (const id of ids) await watcher.until(id, 'STARTED');
    for (let round = 0; round < (process.env.BENCH_QUICK === '1' ? 8 : 24); round++) {
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
  return noted('engine: node failure event -> push, p95 / poll interval', `${fmt(percentile(samples, 95) / 1000, 3)}x`);
}

function childCpuMs(pid: number): number {
  // utime + stime, fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 Hz on Linux).
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Bundles the engine's own process to plain JavaScript (esbuild, next to node_modules so packages resolve). */
async function bundleEngineChild(): Promise<string> {
  const outfile = fileURLToPath(new URL('../node_modules/.cache/ndbtop-bench/engine-child.mjs', import.meta.url));
  await build({ entryPoints: [fileURLToPath(new URL('./engine-child.ts', import.meta.url))], bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', outfile, logLevel: 'error' });
  return outfile;
}

/** Runs a bench script in its own process and returns what it printed on stdout, once it has exited. */
function runChild(args: string[]): Promise<string> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} exited with ${String(code)}: ${out}`)))));
}

interface ChildRun {
  f: EngineFigures;
  /** The simulator's share of one core over the same span, warm-up included: how busy the cluster side was. */
  simCpuPercent: number;
}

/**
 * The engine watching 255 nodes (144 data, 2 management, 109 API) of the simulator in `scenario`, each in its own
 * process (the simulator started by the CLI, the engine bundled to plain JavaScript), so the CPU and RSS figures
 * are the engine's alone.
 */
async function engineOnLargeCluster(scenario: string, seconds: number): Promise<ChildRun> {
  const dataNodes = 144;
  const cli = fileURLToPath(new URL('../electron/cli/ndbtop.ts', import.meta.url));
  const sim = spawn(process.execPath, ['--import', 'tsx', cli, 'sim', '--port', '0', '--data-nodes', String(dataNodes), '--mgm-nodes', '2', '--api-nodes', '109', '--scenario', scenario], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const connectstring = await new Promise<string>((resolve, reject) => {
      let out = '';
      sim.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /connectstring: (\S+)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      sim.on('exit', () => reject(new Error(`simulator exited: ${out}`)));
    });
    const child = await bundleEngineChild();
    const simCpu0 = childCpuMs(sim.pid ?? 0);
    const t0 = performance.now();
    const f = JSON.parse(await runChild(['--expose-gc', child, connectstring, String(seconds), String(dataNodes)])) as EngineFigures;
    const simCpuPercent = ((childCpuMs(sim.pid ?? 0) - simCpu0) / (performance.now() - t0)) * 100;
    return { f, simCpuPercent };
  } finally {
    sim.kill('SIGTERM');
  }
}

/** Shares of one core: the main thread, the others (garbage collector, compilers), and the kernel's time in all of them. */
const whereLine = (f: EngineFigures, digits: number): string => {
  const share = (ms: number): string => `${fmt((ms / f.wallMs) * 100, digits)} %`;
  return `main thread ${share(f.mainThreadMs)}, other threads ${share(f.cpuMs - f.mainThreadMs)} of a core; kernel time (all threads) ${share(f.systemMs)}`;
};

const deltaLine = (f: EngineFigures): string =>
  `${f.deltas} · ${fmt(f.deltaBytes / Math.max(1, f.deltas), 0)} bytes and ${fmt(f.deltaNodes / Math.max(1, f.deltas), 1)} nodes each on average`;

async function largeClusterCost(seconds: number): Promise<Figure[]> {
  const { f, simCpuPercent } = await engineOnLargeCluster('benchmark', seconds);
  const engineCpuPercent = (f.cpuMs / f.wallMs) * 100;
  const mib = (bytes: number): string => fmt(bytes / 2 ** 20, 1);
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(`engine alone in its process, watching 255 nodes (144 data, 4 TC + 4 LQH instances each) under the benchmark load, ${seconds} s, ${f.historyPoints} s of history for every data node (load average ${load} on ${availableParallelism()} cores)`);
  console.log(`  engine CPU      ${fmt(engineCpuPercent, 1)} % of one core (goal <= 4 %)   (simulator beside it: ${fmt(simCpuPercent, 1)} %)`);
  console.log(`  ratio engine/simulator CPU ${fmt(engineCpuPercent / Math.max(1e-9, simCpuPercent))}x`);
  console.log(`  memory          RSS peak ${mib(f.peakRss)} MiB, after GC ${mib(f.live.rss)} MiB (goal <= 150 MiB); live heap ${mib(f.live.heapUsed)} MiB + ${mib(f.live.arrayBuffers)} MiB typed arrays`);
  console.log(`  deltas          ${deltaLine(f)}`);
  console.log(`  pushes          ${fmt((f.pushes / f.wallMs) * 1000, 1)} per second (cap 10); cluster reads/s now ${fmt(f.reads, 0)}`);
  console.log(`  where           ${whereLine(f, 1)}`);
  return [
    atMost('engine CPU, 255 nodes under the benchmark load', engineCpuPercent, 4, ' %', true, 1),
    noted('engine CPU / simulator CPU beside it', `${fmt(engineCpuPercent / Math.max(1e-9, simCpuPercent))}x`),
    atMost('engine RSS after GC, 255 nodes + an hour of history', f.live.rss / 2 ** 20, 150, ' MiB', false, 0),
  ];
}

/** The same cluster with no load: nothing a node shows changes, so deltas should carry no node. */
async function steadyClusterDeltas(seconds: number): Promise<Figure[]> {
  const { f, simCpuPercent } = await engineOnLargeCluster('idle', seconds);
  const cpu = (f.cpuMs / f.wallMs) * 100;
  // Polls that change nothing send no node, nor do the zeros every instance still reports every 5 s: a node's
  // pushed rates and memory are values, not arrival times. A node here is one whose memory figures or status moved.
  console.log(`engine on the same 255 nodes, idle (no load; each instance still reports its zero counts every 5 s), ${seconds} s`);
  console.log(`  deltas          ${deltaLine(f)}; CPU ${fmt(cpu, 2)} % of one core (goal < 1 %; simulator beside it ${fmt(simCpuPercent, 1)} %)`);
  console.log(`  where           ${whereLine(f, 2)}`);
  return [atMost('engine CPU, 255 nodes idle (zero reports every 5 s, 1 s polls)', cpu, 1, ' %', true, 2), noted('engine idle: nodes per delta', fmt(f.deltaNodes / Math.max(1, f.deltas), 1))];
}

export async function benchEngine(): Promise<Figure[]> {
  console.log('== engine');
  const quick = process.env.BENCH_QUICK === '1';
  return [await eventToPush(), ...(await largeClusterCost(Number(process.env.BENCH_SECONDS ?? (quick ? 20 : 60)))), ...(await steadyClusterDeltas(quick ? 15 : 30))];
}
