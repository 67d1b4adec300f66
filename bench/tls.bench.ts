import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MgmClient } from '../native-mgm/client/mgm-client.js';
import { startSimulator } from '../native-mgm/sim/index.js';
import { makeCerts } from '../native-mgm/tls/make-certs.js';
import { fmt, percentile } from './stats.js';
import { noted, type Figure } from './table.js';

const ROUNDS = 300;
const CONNECTS = 30;

/**
 * What TLS costs a monitor: `get status` of 255 nodes (~55 KB) on a TLS session against the same on a
 * clear-text session of the same server, interleaved; and a whole session set-up (dial, start tls + handshake,
 * bootstrap) each way, which every reconnect and failover pays.
 */
export async function benchTls(): Promise<Figure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-bench-tls-'));
  await makeCerts(dir);
  const sim = await startSimulator({ dataNodes: 144, replicas: 2, mgmNodes: 2, apiNodes: 109, connectedApiNodes: 80, scenario: 'idle', tls: { searchPath: dir } });
  const tls = { mode: 'strict' as const, searchPath: dir };
  try {
    const clear = new MgmClient({ connectstring: sim.connectstring });
    const secured = new MgmClient({ connectstring: sim.connectstring, tls });
    for (let i = 0; i < 20; i++) {
      await clear.getStatus();
      await secured.getStatus();
    }
    if (secured.tls?.secured !== true) throw new Error('the TLS client is not on a TLS session');
    const plain: number[] = [];
    const overTls: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      let t = performance.now();
      await clear.getStatus();
      plain.push(performance.now() - t);
      t = performance.now();
      await secured.getStatus();
      overTls.push(performance.now() - t);
    }
    clear.close();
    secured.close();

    const setupPlain: number[] = [];
    const setupTls: number[] = [];
    for (let i = 0; i < CONNECTS; i++) {
      for (const [options, into] of [
        [{}, setupPlain],
        [{ tls }, setupTls],
      ] as const) {
        const c = new MgmClient({ connectstring: sim.connectstring, reconnect: false, ...options });
        const t = performance.now();
        await c.connect();
        into.push(performance.now() - t);
        c.close();
      }
    }
    console.log(`TLS cost: get status, 255 nodes, ${ROUNDS} interleaved round trips (TLS 1.3 vs clear text, same server)`);
    console.log(`  clear text  p50 ${fmt(percentile(plain, 50))} ms  p95 ${fmt(percentile(plain, 95))} ms`);
    console.log(`  TLS         p50 ${fmt(percentile(overTls, 50))} ms  p95 ${fmt(percentile(overTls, 95))} ms`);
    console.log(`  ratio       p50 ${fmt(percentile(overTls, 50) / percentile(plain, 50))}x  p95 ${fmt(percentile(overTls, 95) / percentile(plain, 95))}x`);
    console.log(`  session set-up (dial + start tls/handshake + bootstrap), ${CONNECTS} each: clear p50 ${fmt(percentile(setupPlain, 50))} ms, TLS p50 ${fmt(percentile(setupTls, 50))} ms, ratio ${fmt(percentile(setupTls, 50) / percentile(setupPlain, 50))}x`);
    return [noted('get status 255 nodes, TLS / clear text p50', `${fmt(percentile(overTls, 50) / percentile(plain, 50))}x`)];
  } finally {
    await sim.close();
    await rm(dir, { recursive: true, force: true });
  }
}
