import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import type { PushMessage } from '../electron/contract/channels.js';
import { createEngine } from '../electron/engine/create-engine.js';
import { freePortPair, SimProcess } from '../electron/engine/test/faults/sim-process.js';
import { isRendererBuilt, rendererDistDir } from '../electron/serve/renderer-dir.js';
import { startServeServer } from '../electron/serve/serve-server.js';
import { PUSH_TAG } from '../electron/serve/ws-protocol.js';
import { percentile } from './stats.js';

/**
 * `npm run load [-- --clients 50 --minutes 5]`: WebSocket clients on one `serve` watching 255 nodes (an `ndbtop
 * sim` process, benchmark scenario). Two phases side by side: every client reading, then the same plus one client
 * that never reads. Prints CPU, RSS and push latency (engine push → client receipt) of the slowest client, and the
 * ratio between the phases: a client that never reads must not delay the others. Clients run in this process.
 */
const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const clients = arg('--clients', 50);
const phaseMs = (arg('--minutes', 1) * 60_000) / 2;

const port = await freePortPair();
const sim = new SimProcess(port, ['--data-nodes', '144', '--mgm-nodes', '2', '--api-nodes', '109', '--scenario', 'benchmark', '--speed', '10']);
await sim.start();
const engine = await createEngine({ host: 'serve', clusters: [{ name: 'load', connectstring: `127.0.0.1:${port},127.0.0.1:${port + 1}` }], simulator: false, pollIntervalMs: 1000 });
const server = await startServeServer({ engine, staticDir: rendererDistDir(), host: '127.0.0.1', port: 0 });
if (!isRendererBuilt(rendererDistDir())) console.log('note: renderer not built; only the WebSocket is used here');

/** When the engine handed out each push, by a key the clients can compute too. */
const sentAt = new Map<string, number>();
// Deltas only: a new subscriber's first snapshot is an old version, sent to it alone.
const keyOf = (m: PushMessage): string | null => (m.type === 'delta' ? `${m.delta.clusterId}:${m.delta.version}` : null);
engine.subscribe((m) => {
  const k = keyOf(m);
  if (k) sentAt.set(k, performance.now());
  if (sentAt.size > 100_000) sentAt.clear();
});

interface Client {
  ws: WebSocket;
  latencies: number[];
  received: number;
}
const wsUrl = `ws://127.0.0.1:${server.port}/ws`;
async function connectClient(reads: boolean): Promise<Client> {
  const ws = new WebSocket(wsUrl);
  const c: Client = { ws, latencies: [], received: 0 };
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as { type: string; message?: PushMessage };
    if (frame.type !== PUSH_TAG || !frame.message) return;
    c.received += 1;
    const k = keyOf(frame.message);
    const t = k ? sentAt.get(k) : undefined;
    if (t !== undefined) c.latencies.push(performance.now() - t);
  });
  ws.on('error', () => undefined);
  await new Promise((r, j) => ws.once('open', r).once('error', j));
  if (!reads) ws.pause();
  return c;
}

async function phase(label: string, withStalled: boolean): Promise<number> {
  const readers = await Promise.all(Array.from({ length: clients }, () => connectClient(true)));
  const stalled = withStalled ? await connectClient(false) : null;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 500);
  await new Promise((r) => setTimeout(r, phaseMs));
  clearInterval(sampler);
  const cpu = process.cpuUsage(cpu0);
  const wall = performance.now() - t0;
  const perClient = readers.map((c) => ({ p99: percentile(c.latencies, 99), max: Math.max(0, ...c.latencies), n: c.received }));
  const slowest = perClient.reduce((a, b) => (b.p99 > a.p99 ? b : a));
  const all = readers.flatMap((c) => c.latencies);
  console.log(
    `${label}: ${readers.length} reading clients${stalled ? ' + 1 that never reads' : ''}, ${(wall / 1000).toFixed(0)} s: CPU ${(((cpu.user + cpu.system) / 1000 / wall) * 100).toFixed(0)} % of a core, peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MB; ` +
      `push latency p50 ${percentile(all, 50).toFixed(1)} ms, slowest client p99 ${slowest.p99.toFixed(1)} ms (max ${slowest.max.toFixed(1)} ms, ${slowest.n} pushes); fewest pushes to a client ${Math.min(...perClient.map((c) => c.n))}` +
      (stalled ? `; the non-reader ${stalled.ws.readyState === WebSocket.OPEN ? 'is still connected' : 'was disconnected'}` : ''),
  );
  for (const c of [...readers, ...(stalled ? [stalled] : [])]) c.ws.terminate();
  return slowest.p99;
}

try {
  const a = await phase('phase A', false);
  const b = await phase('phase B', true);
  console.log(`slowest client's p99 push latency with a non-reading client / without: ${(b / a).toFixed(2)}`);
} finally {
  await server.close();
  await engine.close();
  await sim.kill();
}
