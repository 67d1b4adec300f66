import { performance } from 'node:perf_hooks';
import { startServeServer } from '../electron/serve/serve-server.js';
import { LARGEST, SyntheticClusters } from '../electron/serve/metrics/test/synthetic-engine.js';
import { fmt, percentile } from './stats.js';
import { noted, type Figure } from './table.js';

const SCRAPES = 200;

async function timeGets(port: number, path: string, headers: Record<string, string>): Promise<{ times: number[]; body: string }> {
  const times: number[] = [];
  let body = '';
  for (let i = 0; i < SCRAPES; i++) {
    const t0 = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
    body = await res.text();
    times.push(performance.now() - t0);
  }
  return { times, body };
}

/**
 * One `/metrics` scrape of the largest cluster NDB allows (144 data + 109 API + 2 management nodes, 4 TC and
 * 4 LQH instances each reporting), over HTTP as Prometheus does it, beside `/api/snapshot` of the same state.
 */
export async function benchMetrics(): Promise<Figure[]> {
  console.log('== metrics');
  const clusters = new SyntheticClusters();
  const id = clusters.add(LARGEST);
  for (let period = 0; period < 3; period++) clusters.report(id, clusters.dataNodes(id), 4, 100);
  const token = 'bench-token-0123456789';
  const server = await startServeServer({ engine: clusters.engine, staticDir: '/nonexistent', port: 0, token });
  try {
    const headers = { Authorization: `Bearer ${token}` };
    // Warm both paths up (JIT, prom-client's label maps) before timing.
    await timeGets(server.port, '/metrics', headers);
    const metrics = await timeGets(server.port, '/metrics', headers);
    const snapshot = await timeGets(server.port, '/api/snapshot', headers);
    const lines = metrics.body.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    const ours = lines.filter((l) => l.startsWith('ndbtop_')).length;
    const families = new Set(metrics.body.match(/^# TYPE ndbtop_\S+/gm)).size;
    console.log(`/metrics at 255 nodes (144 data, 109 API, 2 MGM), ${SCRAPES} scrapes over HTTP with the token`);
    console.log(`  one scrape      p50 ${fmt(percentile(metrics.times, 50))} ms  p95 ${fmt(percentile(metrics.times, 95))} ms  (${fmt(metrics.body.length / 1024, 0)} KiB)`);
    console.log(`  /api/snapshot   p50 ${fmt(percentile(snapshot.times, 50))} ms  (same state as JSON)`);
    console.log(`  ratio scrape / snapshot p50 ${fmt(percentile(metrics.times, 50) / percentile(snapshot.times, 50))}x`);
    console.log(`  series          ${ours} ndbtop_ series in ${families} families, ${lines.length - ours} process/Node.js series`);
    return [noted('/metrics scrape at 255 nodes, p50 / /api/snapshot p50', `${fmt(percentile(metrics.times, 50) / percentile(snapshot.times, 50))}x`)];
  } finally {
    await server.close();
    await clusters.engine.close();
  }
}
