/**
 * One side of `ndbinfo.bench.ts` in a process of its own, as a user runs it: `engine` (the whole engine watching the
 * cluster at argv[3], with the SQL node at argv[4] or, given '-', without), or `bare` (one mysql2 connection sending
 * the source's queries on the source's intervals to argv[4], rows dropped). Measures argv[5] seconds after a warm-up
 * and prints one JSON line: the process's CPU per second (every thread, the JIT and GC included) and queries sent.
 */
import { performance } from 'node:perf_hooks';
import mysql from 'mysql2/promise';
import { createEngine } from '../electron/engine/index.js';
import { READINGS } from '../ndbinfo/client/readings.js';
import { parseSqlUrl } from '../ndbinfo/client/sql-url.js';
import { NDBINFO_TABLES } from '../ndbinfo/schema/tables.js';

const WARM_UP_MS = 5000;

export interface NdbinfoFigures {
  cpuMsPerSec: number;
  queries: number;
  /** Share of the wall time a query to the SQL node was outstanding. */
  waitShare: number;
}

async function measure(seconds: number): Promise<{ cpuMsPerSec: number; wallMs: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const cpu = process.cpuUsage(cpu0);
  const wallMs = performance.now() - t0;
  return { cpuMsPerSec: (cpu.user + cpu.system) / 1000 / (wallMs / 1000), wallMs };
}

async function engine(connectstring: string, url: string | null, seconds: number): Promise<NdbinfoFigures> {
  const sql = url === null ? undefined : { addresses: [parseSqlUrl(url)], password: undefined };
  const e = await createEngine({ host: 'serve', clusters: [{ connectstring, ...(sql ? { sql } : {}) }] });
  try {
    await new Promise((r) => setTimeout(r, WARM_UP_MS));
    const load = async () => (await e.handlers.getSnapshot({})).ndbinfo?.selfLoad ?? null;
    const before = await load();
    const { cpuMsPerSec } = await measure(seconds);
    const after = await load();
    return { cpuMsPerSec, waitShare: after?.share ?? 0, queries: (after?.queries ?? 0) - (before?.queries ?? 0) };
  } finally {
    await e.close();
  }
}

async function bare(url: string, seconds: number): Promise<NdbinfoFigures> {
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
    const { cpuMsPerSec, wallMs } = await measure(seconds);
    return { cpuMsPerSec, waitShare: (waitingMs - w0) / wallMs, queries: queries - q0 };
  } finally {
    for (const t of timers) clearInterval(t);
    await chain;
    await conn.end();
  }
}

const [mode, connectstring, url, seconds] = process.argv.slice(2);
if (mode && connectstring && url && seconds) {
  const figures = mode === 'bare' ? await bare(url, Number(seconds)) : await engine(connectstring, url === '-' ? null : url, Number(seconds));
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}
