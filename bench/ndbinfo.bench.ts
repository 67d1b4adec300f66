import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { simAddresses, spawnCli } from '../electron/cli/test/run-cli.js';
import type { NdbinfoFigures } from './ndbinfo-child.js';
import { fmt, percentile } from './stats.js';
import { noted, type Figure } from './table.js';

const QUICK = process.env.BENCH_QUICK === '1';
const SECONDS = Number(process.env.BENCH_NDBINFO_SECONDS ?? (QUICK ? 12 : 30));
/** Rounds of the three sides, interleaved, so each sees the same machine noise; the median of each is reported. */
const ROUNDS = QUICK ? 1 : 3;
const DATA_NODES = 48;

/** The simulator at 48 data nodes with its SQL node, in a process of its own so its CPU is not counted. */
async function startSimulator(): Promise<{ child: ChildProcess; connectstring: string; url: string }> {
  const child = spawnCli(['sim', '--port', '0', '--scenario', 'flexasynch', '--data-nodes', String(DATA_NODES), '--sql-port', '0']);
  return { child, ...(await simAddresses(child)) };
}

function runChild(args: string[]): Promise<NdbinfoFigures> {
  const script = fileURLToPath(new URL('./ndbinfo-child.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as NdbinfoFigures) : reject(new Error(`ndbinfo child ${args[0]} exited with ${String(code)}`)))));
}

/**
 * `npm run bench ndbinfo`: what the SQL source costs a user, as a user runs it: the engine in a process of its own
 * with and without the SQL node (the difference is what ndbinfo costs, everything it derives included), beside a bare
 * mysql2 client in a process of its own sending the same queries on the same intervals and dropping the rows. Each
 * side starts fresh, as `ndbtop serve` does, and the rounds interleave. The engine's share is several times the bare
 * client's because it reads every row (checks, scrubs and keys each cell, then derives the figures), which the bare
 * client never does; per query as well, since the engine's budget may send fewer (bench/README.md).
 */
export async function benchNdbinfo(): Promise<Figure[]> {
  console.log(`== ndbinfo (${DATA_NODES} data nodes, flexasynch, ${SECONDS} s each, ${ROUNDS} interleaved round${ROUNDS > 1 ? 's' : ''}, each side in its own process)`);
  const sim = await startSimulator();
  const sides = { without: [] as NdbinfoFigures[], withSql: [] as NdbinfoFigures[], bare: [] as NdbinfoFigures[] };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      sides.without.push(await runChild(['engine', sim.connectstring, '-', String(SECONDS)]));
      sides.withSql.push(await runChild(['engine', sim.connectstring, sim.url, String(SECONDS)]));
      sides.bare.push(await runChild(['bare', sim.connectstring, sim.url, String(SECONDS)]));
    }
  } finally {
    sim.child.kill('SIGTERM');
  }
  const median = (runs: NdbinfoFigures[], pick: (f: NdbinfoFigures) => number): number => percentile(runs.map(pick), 50);
  const without = median(sides.without, (f) => f.cpuMsPerSec);
  const withSql = median(sides.withSql, (f) => f.cpuMsPerSec);
  const bare = median(sides.bare, (f) => f.cpuMsPerSec);
  const [engineQueries, bareQueries] = [median(sides.withSql, (f) => f.queries), median(sides.bare, (f) => f.queries)];
  // The threads reading runs once a second: a "poll" is a second of reading, whatever else falls due in it.
  const ndbinfoCpu = withSql - without;
  console.log(`engine CPU: ${fmt(without)} ms/s without ndbinfo, ${fmt(withSql)} ms/s with it: ${fmt(ndbinfoCpu)} ms per ndbinfo poll (${engineQueries} queries)`);
  console.log(`bare mysql2 process, same queries and intervals: ${fmt(bare)} ms per poll (${bareQueries} queries); engine ÷ bare ${fmt(ndbinfoCpu / bare)}×`);
  // The engine's budget stretches its intervals when the SQL node is slow, so it may send fewer queries: per query too.
  const perQuery = (cpuMsPerSec: number, queries: number): number => (queries > 0 ? (cpuMsPerSec * SECONDS) / queries : NaN);
  const [enginePerQuery, barePerQuery] = [perQuery(ndbinfoCpu, engineQueries), perQuery(bare, bareQueries)];
  console.log(`CPU per query: engine ${fmt(enginePerQuery)} ms, bare ${fmt(barePerQuery)} ms (${fmt(enginePerQuery / barePerQuery)}×)`);
  console.log(`share of the poll interval waiting on the SQL node: engine ${fmt(median(sides.withSql, (f) => f.waitShare) * 100)} %, bare ${fmt(median(sides.bare, (f) => f.waitShare) * 100)} %`);
  return [
    noted('ndbinfo: engine CPU per poll (with - without SQL) / bare mysql2 process', `${fmt(ndbinfoCpu / bare)}x`),
    noted('ndbinfo: what the SQL source costs a user, 48 data nodes', `${fmt(ndbinfoCpu / 10, 1)} % of a core`),
  ];
}
