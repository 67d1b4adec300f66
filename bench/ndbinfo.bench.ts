import type { ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import mysql from 'mysql2/promise';
import { simAddresses, spawnCli } from '../electron/cli/test/run-cli.js';
import { createEngine } from '../electron/engine/index.js';
import { READINGS } from '../ndbinfo/client/readings.js';
import { parseSqlUrl } from '../ndbinfo/client/sql-url.js';
import { NDBINFO_TABLES } from '../ndbinfo/schema/tables.js';
import { fmt } from './stats.js';

const SECONDS = Number(process.env.BENCH_NDBINFO_SECONDS ?? 30);
const DATA_NODES = 48;
const WARM_UP_MS = 5000;

interface Figures {
  cpuMsPerSec: number;
  /** Share of the wall time a query to the SQL node was outstanding. */
  waitShare: number;
  queries: number;
}

/** The simulator at 48 data nodes with its SQL node, in a process of its own so its CPU is not counted. */
async function startSimulator(): Promise<{ child: ChildProcess; connectstring: string; url: string }> {
  const child = spawnCli(['sim', '--port', '0', '--scenario', 'flexasynch', '--data-nodes', String(DATA_NODES), '--sql-port', '0']);
  return { child, ...(await simAddresses(child)) };
}

async function measure(seconds: number): Promise<{ cpuMs: number; wallMs: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const cpu = process.cpuUsage(cpu0);
  return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - t0 };
}

/** The whole engine watching the cluster, with or without its ndbinfo source: the difference is what ndbinfo costs. */
async function engineRun(connectstring: string, url: string | null): Promise<Figures> {
  const sql = url === null ? undefined : { addresses: [parseSqlUrl(url)], password: undefined };
  const engine = await createEngine({ host: 'serve', clusters: [{ connectstring, ...(sql ? { sql } : {}) }] });
  try {
    await new Promise((r) => setTimeout(r, WARM_UP_MS));
    const load = async () => (await engine.handlers.getSnapshot({})).ndbinfo?.selfLoad ?? null;
    const before = await load();
    const { cpuMs, wallMs } = await measure(SECONDS);
    const after = await load();
    return { cpuMsPerSec: cpuMs / (wallMs / 1000), waitShare: after?.share ?? 0, queries: (after?.queries ?? 0) - (before?.queries ?? 0) };
  } finally {
    await engine.close();
  }
}

/** The same queries on the same intervals from one bare mysql2 connection, rows dropped: the floor. */
async function bareRun(url: string): Promise<Figures> {
  const address = parseSqlUrl(url);
  const conn = await mysql.createConnection({ host: address.host, port: address.port, user: address.user, database: 'ndbinfo' });
  // The simulator's SQL node of the default release has every table and column.
  const schema = { present: new Set(NDBINFO_TABLES.map((t) => t.name)), columns: new Map(NDBINFO_TABLES.map((t) => [t.name, new Set(t.columns.map((c) => c.name.toLowerCase()))])) };
  let waitingMs = 0;
  let queries = 0;
  // One connection, one query at a time, as the source does: a reading due while another runs waits its turn.
  let chain = Promise.resolve();
  const timers = READINGS.map((reading) =>
    setInterval(() => {
      chain = chain.then(async () => {
        const t0 = performance.now();
        await conn.query(reading.query(schema).sql);
        waitingMs += performance.now() - t0;
        queries++;
      });
    }, reading.intervalMs),
  );
  try {
    await new Promise((r) => setTimeout(r, WARM_UP_MS));
    const [w0, q0] = [waitingMs, queries];
    const { cpuMs, wallMs } = await measure(SECONDS);
    return { cpuMsPerSec: cpuMs / (wallMs / 1000), waitShare: (waitingMs - w0) / wallMs, queries: queries - q0 };
  } finally {
    for (const t of timers) clearInterval(t);
    await chain;
    await conn.end();
  }
}

/** `npm run bench ndbinfo`: the engine's CPU per ndbinfo poll of 48 data nodes beside a bare mysql2 client's. */
export async function benchNdbinfo(): Promise<void> {
  console.log(`== ndbinfo (${DATA_NODES} data nodes, flexasynch, ${SECONDS} s each)`);
  const sim = await startSimulator();
  try {
    const without = await engineRun(sim.connectstring, null);
    const withSql = await engineRun(sim.connectstring, sim.url);
    const bare = await bareRun(sim.url);
    // The threads reading runs once a second: a "poll" is a second of reading, whatever else falls due in it.
    const ndbinfoCpu = withSql.cpuMsPerSec - without.cpuMsPerSec;
    console.log(`engine CPU: ${fmt(without.cpuMsPerSec)} ms/s without ndbinfo, ${fmt(withSql.cpuMsPerSec)} ms/s with it: ${fmt(ndbinfoCpu)} ms per ndbinfo poll (${withSql.queries} queries)`);
    console.log(`bare mysql2, same queries and intervals: ${fmt(bare.cpuMsPerSec)} ms per poll (${bare.queries} queries); engine ÷ bare ${fmt(ndbinfoCpu / bare.cpuMsPerSec)}×`);
    // The engine's budget stretches its intervals when the SQL node is slow, so it may send fewer queries: per query too.
    const perQuery = (cpuMsPerSec: number, queries: number): number => (queries > 0 ? (cpuMsPerSec * SECONDS) / queries : NaN);
    const [enginePerQuery, barePerQuery] = [perQuery(ndbinfoCpu, withSql.queries), perQuery(bare.cpuMsPerSec, bare.queries)];
    console.log(`CPU per query: engine ${fmt(enginePerQuery)} ms, bare ${fmt(barePerQuery)} ms (${fmt(enginePerQuery / barePerQuery)}×)`);
    console.log(`share of the poll interval waiting on the SQL node: engine ${fmt(withSql.waitShare * 100)} %, bare ${fmt(bare.waitShare * 100)} %`);
  } finally {
    sim.child.kill('SIGTERM');
  }
}
