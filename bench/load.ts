import { fork } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import type { PushMessage } from '../electron/contract/schemas/channels.js';
import { createEngine } from '../electron/engine/create-engine.js';
import { SimProcess } from '../electron/engine/test/faults/sim-process.js';
import { freePort } from '../native-mgm/test/free-port.js';
import { rendererDistDir } from '../electron/serve/http/renderer-dir.js';
import { startServeServer } from '../electron/serve/serve-server.js';
import type { ClientsJob, ClientsReport } from './load/clients.js';
import { percentile } from './stats.js';

/**
 * `npm run load [-- --clients 50 --minutes 5 --baseline-minutes 1 --slow-kbps 16]`: WebSocket clients on one
 * `serve` watching 255 nodes (an `ndbtop sim` process, benchmark scenario). A baseline phase with every client
 * reading, then the measured one: the same plus one client that never reads and one that reads only
 * `--slow-kbps`. The clients run in a child process, so CPU and RSS are the serve process's own (engine and
 * serve). Prints push latency (engine push → receipt) p50/p95/max of the slowest reading client, the slow
 * client's resyncs and drops, and what the non-reader found waiting: a client that falls behind must not delay
 * the others, nor make the server buffer without bound.
 */
const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const clients = arg('--clients', 50);
const mainMs = arg('--minutes', 5) * 60_000;
const baselineMs = arg('--baseline-minutes', 1) * 60_000;
const slowKBps = arg('--slow-kbps', 16);
const now = (): number => performance.timeOrigin + performance.now();
const load = (): string => loadavg().map((l) => l.toFixed(1)).join(' ');

const port = await freePort(2);
const sim = new SimProcess(port, ['--data-nodes', '144', '--mgm-nodes', '2', '--api-nodes', '109', '--scenario', 'benchmark', '--speed', '10']);
await sim.start();
const engine = await createEngine({ host: 'serve', clusters: [{ name: 'load', connectstring: `127.0.0.1:${port},127.0.0.1:${port + 1}` }], simulator: false, pollIntervalMs: 1000 });
const server = await startServeServer({ engine, staticDir: rendererDistDir(), host: '127.0.0.1', port: 0 });

/** When the engine handed out each delta (a new subscriber's first snapshot is an old version, sent to it alone). */
const sentAt = new Map<string, number>();
const keyOf = (m: PushMessage): string | null => (m.type === 'delta' ? `${m.delta.clusterId}:${m.delta.version}` : null);
engine.subscribe((m) => {
  const k = keyOf(m);
  if (k) sentAt.set(k, now());
});

async function phase(label: string, ms: number, withSlow: boolean): Promise<number> {
  const child = fork(new URL('./load/clients.ts', import.meta.url), { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const job: ClientsJob = { url: `ws://127.0.0.1:${server.port}/ws`, readers: clients, ms, slowKBps: withSlow ? slowKBps : null };
  child.send(job);
  await once(child, 'message');
  const load0 = load();
  const cpu0 = process.cpuUsage();
  const t0 = now();
  const sentBefore = new Set(sentAt.keys());
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 500);
  const [report] = (await once(child, 'message')) as [ClientsReport];
  clearInterval(sampler);
  const wall = now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const sent = [...sentAt.keys()].filter((k) => !sentBefore.has(k)).length;
  const perClient = report.receipts.map((r) => {
    const lat = r.map(([k, at]) => at - (sentAt.get(k) ?? at));
    return { p50: percentile(lat, 50), p95: percentile(lat, 95), max: Math.max(0, ...lat), n: r.length };
  });
  const slowest = perClient.reduce((a, b) => (b.p95 > a.p95 ? b : a));
  console.log(
    `${label}: ${clients} reading clients${withSlow ? ` + 1 that never reads + 1 reading ${slowKBps} kB/s` : ''}, ${(wall / 1000).toFixed(0)} s (load average ${load0} -> ${load()}):\n` +
      `  serve process CPU ${(((cpu.user + cpu.system) / 1000 / wall) * 100).toFixed(0)} % of a core, peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MB; ` +
      `${sent} deltas pushed, ${((report.kb / clients / wall) * 1000).toFixed(1)} kB/s to each reader, fewest received by one ${Math.min(...perClient.map((c) => c.n))}\n` +
      `  push latency to the slowest reader: p50 ${slowest.p50.toFixed(1)} ms, p95 ${slowest.p95.toFixed(1)} ms, max ${slowest.max.toFixed(1)} ms`,
  );
  if (report.slow) console.log(`  slow reader: ${report.slow.resyncs} resyncs, ${report.slow.drops} drops, ${report.slow.pushes} pushes, ${report.slow.kb.toFixed(0)} kB`);
  if (report.stalled) console.log(`  non-reader: ${report.stalled.kbWaiting.toFixed(0)} kB waiting for it when it read again; ${report.stalled.stillOpen ? 'still connected' : 'dropped by the server'}`);
  return slowest.p95;
}

try {
  const a = await phase('baseline', baselineMs, false);
  const b = await phase('with slow clients', mainMs, true);
  console.log(`slowest reader's p95 push latency with the slow clients / without: ${(b / a).toFixed(2)}`);
} finally {
  await server.close();
  await engine.close();
  await sim.kill();
}
