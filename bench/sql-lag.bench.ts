import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SqlLagFigures, SqlLagSide } from './sql-lag-child.js';
import { fmt, percentile } from './stats.js';
import { noted, type Figure } from './table.js';

const QUICK = process.env.BENCH_QUICK === '1';
const SECONDS = Number(process.env.BENCH_SQL_LAG_SECONDS ?? (QUICK ? 15 : 30));
const ROUNDS = QUICK ? 1 : 3;
const DATA_NODES = Number(process.env.BENCH_SQL_LAG_DATA_NODES ?? 48);

function runChild(mode: SqlLagSide): Promise<SqlLagFigures> {
  const script = fileURLToPath(new URL('./sql-lag-child.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, mode, String(DATA_NODES), String(SECONDS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as SqlLagFigures) : reject(new Error(`sql-lag child ${mode} exited with ${String(code)}`)))));
}

/**
 * `npm run bench sql-lag`: how long the engine's event loop waits with the embedded SQL node (the desktop app's
 * default: the simulator, its SQL node and the engine in one process) beside the same engine and simulator without
 * it, each side fresh in its own process, rounds interleaved so both see the same machine noise (medians reported):
 * the wall-clock delay a timer sees, and the CPU the process spent between two turns (a hold that waiting for a core,
 * on a loaded machine, does not inflate). A third side runs the simulator and its SQL node apart (`ndbtop sim`): what
 * is left there is the engine's own work on the answers, which any SQL node of that size costs.
 */
export async function benchSqlLag(): Promise<Figure[]> {
  console.log(`== sql-lag (${DATA_NODES} data nodes, flexasynch, embedded simulator, ${SECONDS} s each, ${ROUNDS} interleaved round${ROUNDS > 1 ? 's' : ''})`);
  const sides = { with: [] as SqlLagFigures[], without: [] as SqlLagFigures[], apart: [] as SqlLagFigures[] };
  for (let round = 0; round < ROUNDS; round++) {
    sides.without.push(await runChild('without'));
    sides.with.push(await runChild('with'));
    sides.apart.push(await runChild('apart'));
  }
  const median = (runs: SqlLagFigures[], pick: (f: SqlLagFigures) => number): number => percentile(runs.map(pick), 50);
  const [p99With, p99Without] = [median(sides.with, (f) => f.p99Ms), median(sides.without, (f) => f.p99Ms)];
  const [maxWith, maxWithout] = [median(sides.with, (f) => f.maxMs), median(sides.without, (f) => f.maxMs)];
  const [holdWith, holdWithout] = [median(sides.with, (f) => f.holdP99Ms), median(sides.without, (f) => f.holdP99Ms)];
  const [holdMaxWith, holdMaxWithout] = [median(sides.with, (f) => f.holdMaxMs), median(sides.without, (f) => f.holdMaxMs)];
  const [holdApart, holdMaxApart] = [median(sides.apart, (f) => f.holdP99Ms), median(sides.apart, (f) => f.holdMaxMs)];
  console.log(`loop held (CPU between two turns of a 5 ms timer) p99: ${fmt(holdWith)} ms with, ${fmt(holdWithout)} ms without; max ${fmt(holdMaxWith)} ms and ${fmt(holdMaxWithout)} ms`);
  console.log(`the same with the simulator and its SQL node in a process of their own (the engine's own ndbinfo work): p99 ${fmt(holdApart)} ms, max ${fmt(holdMaxApart)} ms (SQL source: ${sides.apart.map((f) => f.source).join('; ')})`);
  console.log(`event-loop delay p99: ${fmt(p99With)} ms with the SQL node, ${fmt(p99Without)} ms without; max ${fmt(maxWith)} ms and ${fmt(maxWithout)} ms (${median(sides.with, (f) => f.queries)} queries answered; the SQL source: ${sides.with.map((f) => f.source).join('; ')})`);
  return [
    noted(`embedded SQL node, ${DATA_NODES} data nodes: engine loop delay p99 with / without it`, `${fmt(p99With, 1)} / ${fmt(p99Without, 1)} ms (${fmt(p99With / p99Without)}x)`),
    noted(`embedded SQL node, ${DATA_NODES} data nodes: engine loop delay max with / without it`, `${fmt(maxWith, 1)} / ${fmt(maxWithout, 1)} ms (${fmt(maxWith / maxWithout)}x)`),
    noted(`embedded SQL node, ${DATA_NODES} data nodes: engine loop held, CPU p99 with / without it`, `${fmt(holdWith, 1)} / ${fmt(holdWithout, 1)} ms (${fmt(holdWith / holdWithout)}x)`),
    noted(`embedded SQL node, ${DATA_NODES} data nodes: engine loop held, CPU max with / without it`, `${fmt(holdMaxWith, 1)} / ${fmt(holdMaxWithout, 1)} ms (${fmt(holdMaxWith / holdMaxWithout)}x)`),
    noted(`embedded SQL node, ${DATA_NODES} data nodes: engine loop held, CPU p99 embedded / SQL node apart`, `${fmt(holdWith, 1)} / ${fmt(holdApart, 1)} ms (${fmt(holdWith / holdApart)}x)`),
  ];
}
