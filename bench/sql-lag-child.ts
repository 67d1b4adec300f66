/**
 * One side of `sql-lag.bench.ts` in a process of its own, as the desktop app's embedded default runs: the engine
 * with the built-in simulator (argv[3] data nodes, flexasynch) in the same process, its SQL node on (`with`) or off
 * (`without`); or (`apart`) the engine watching that simulator and its SQL node run as `ndbtop sim` in a process of
 * their own, so the engine does all its own ndbinfo work and none of the SQL node's. argv[4] seconds are measured
 * after a warm-up. Prints one JSON line: the engine's event-loop delay (p99 and
 * max), the longest holds of its loop in CPU time, and the ndbinfo queries answered meanwhile.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { percentile } from './stats.js';
import { simAddresses, spawnCli } from '../electron/cli/test/run-cli.js';
import { createEngine } from '../electron/engine/index.js';
import { parseSqlUrl } from '../ndbinfo/client/sql-url.js';

const WARM_UP_MS = 8000;

export interface SqlLagFigures {
  p99Ms: number;
  maxMs: number;
  /**
   * The process's CPU time between two turns of a 5 ms timer, p99 and max: how long the loop was held by work, which
   * a loaded machine does not inflate as it does the wall-clock delay (waiting for a core costs no CPU).
   */
  holdP99Ms: number;
  holdMaxMs: number;
  queries: number;
  /** The SQL source as the measurement ended: 'up' unless it lost or failed its SQL node meanwhile (and why). */
  source: string;
}

export type SqlLagSide = 'with' | 'without' | 'apart';

async function startEngine(side: SqlLagSide, dataNodes: number): Promise<{ engine: Awaited<ReturnType<typeof createEngine>>; stop: () => void }> {
  if (side !== 'apart') return { engine: await createEngine({ host: 'serve', simulator: { scenario: 'flexasynch', dataNodes, ...(side === 'with' ? {} : { sql: false }) } }), stop: () => undefined };
  const sim = spawnCli(['sim', '--port', '0', '--scenario', 'flexasynch', '--data-nodes', String(dataNodes), '--sql-port', '0']);
  const stop = (): void => void sim.kill('SIGTERM');
  try {
    const { connectstring, url } = await simAddresses(sim);
    return { engine: await createEngine({ host: 'serve', clusters: [{ connectstring, sql: { addresses: [parseSqlUrl(url)], password: undefined } }] }), stop };
  } catch (err) {
    stop();
    throw err;
  }
}

async function main(side: SqlLagSide, dataNodes: number, seconds: number): Promise<SqlLagFigures> {
  const withSql = side !== 'without';
  const { engine, stop } = await startEngine(side, dataNodes);
  try {
    await new Promise((r) => setTimeout(r, WARM_UP_MS));
    const ndbinfo = async () => (await engine.handlers.getSnapshot({})).ndbinfo;
    const queries = async (): Promise<number> => (await ndbinfo())?.selfLoad?.queries ?? 0;
    const before = await queries();
    // 10 ms resolution: the timer's own granularity, far below the stalls this looks for.
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const holds: number[] = [];
    let last = process.cpuUsage();
    const turn = setInterval(() => {
      const used = process.cpuUsage(last);
      last = process.cpuUsage();
      holds.push((used.user + used.system) / 1000);
    }, 5);
    await new Promise((r) => setTimeout(r, seconds * 1000));
    clearInterval(turn);
    delay.disable();
    const after = await queries();
    if (withSql && after === before) throw new Error('the embedded SQL node answered no query');
    const view = (await ndbinfo())?.source;
    const source = view ? `${view.status}${view.failovers > 0 ? `, ${view.failovers} failovers` : ''}${view.lastError ? ` (${view.lastError})` : ''}` : 'none';
    return { p99Ms: delay.percentile(99) / 1e6, maxMs: delay.max / 1e6, holdP99Ms: percentile(holds, 99), holdMaxMs: Math.max(...holds), queries: after - before, source };
  } finally {
    await engine.close();
    stop();
  }
}

const [mode, dataNodes, seconds] = process.argv.slice(2);
if (mode && dataNodes && seconds) process.stdout.write(`${JSON.stringify(await main(mode as SqlLagSide, Number(dataNodes), Number(seconds)))}\n`);
