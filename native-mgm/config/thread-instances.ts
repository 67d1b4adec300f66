import type { ConfigParams } from './cluster-config.js';

/** How many DBTC and DBLQH instances a data node runs: each sends its own 5 s statistics report (spec §7.3). */
export interface BlockInstances {
  tc: number;
  lqh: number;
}

/**
 * ldm/tc/send/recv threads for MaxNoOfExecutionThreads 9..72, from `computeThreadConfig` in the server's
 * mt_thr_config.cpp (the manual's MaxNoOfExecutionThreads table); values past 72 use the last row, as the server does.
 */
const BY_MAX_THREADS: ReadonlyArray<readonly [ldm: number, tc: number, send: number, recv: number]> = [
  [4, 2, 0, 1], [4, 2, 1, 1], [4, 3, 1, 1], [6, 2, 1, 1], [6, 3, 1, 1], [6, 3, 1, 2], [6, 3, 2, 2], [8, 3, 1, 2], [8, 4, 1, 2], [8, 4, 2, 2],
  [8, 5, 2, 2], [10, 4, 2, 2], [10, 5, 2, 2], [10, 5, 2, 3], [10, 6, 2, 3], [12, 5, 2, 3], [12, 6, 2, 3], [12, 6, 3, 3], [12, 7, 3, 3], [12, 7, 3, 4],
  [12, 8, 3, 4], [12, 8, 4, 4], [12, 9, 4, 4], [16, 7, 4, 3], [16, 7, 4, 4], [16, 8, 4, 4], [16, 9, 4, 4], [16, 10, 4, 4], [16, 10, 4, 5], [16, 11, 4, 5],
  [16, 12, 4, 5], [20, 10, 4, 4], [20, 10, 4, 5], [20, 11, 4, 5], [20, 11, 5, 5], [20, 12, 5, 5], [20, 12, 5, 6], [20, 13, 5, 6], [20, 14, 5, 6], [24, 11, 6, 5],
  [24, 11, 6, 6], [24, 12, 6, 6], [24, 13, 6, 6], [24, 14, 6, 6], [24, 14, 6, 7], [24, 15, 6, 7], [24, 16, 6, 7], [24, 17, 6, 7], [24, 18, 6, 8], [24, 19, 6, 8],
  [24, 17, 8, 8], [24, 18, 8, 8], [24, 18, 8, 9], [24, 19, 8, 9], [24, 19, 9, 9], [32, 15, 8, 7], [32, 15, 8, 8], [32, 16, 8, 8], [32, 17, 8, 8], [32, 18, 8, 8],
  [32, 18, 8, 9], [32, 19, 8, 9], [32, 20, 8, 9], [32, 20, 8, 10],
];

/** The block threads of an ndbmtd (io, watchdog and index-build threads run no blocks and are not counted). */
export interface ThreadCounts {
  main: number;
  rep: number;
  ldm: number;
  query: number;
  tc: number;
  recv: number;
  send: number;
}

/** The server's `do_parse(MaxNoOfExecutionThreads, …)`: main and rep always, one receive thread below 9. */
function fromMaxThreads(max: number): ThreadCounts {
  const counts = { main: 1, rep: 1, query: 0, tc: 0, send: 0, recv: 1 };
  if (max <= 3) return { ...counts, ldm: 1 };
  if (max <= 6) return { ...counts, ldm: 2 };
  if (max <= 8) return { ...counts, ldm: 4 };
  const [ldm, tc, send, recv] = BY_MAX_THREADS[Math.min(max - 9, BY_MAX_THREADS.length - 1)]!;
  return { ...counts, ldm, tc, send, recv };
}

const COUNTED = ['main', 'rep', 'ldm', 'query', 'tc', 'recv', 'send'] as const;

/**
 * Thread counts a ThreadConfig string names, e.g. `main,rep,recv={count=2},ldm={count=8,cpubind=1-8},tc={count=4}`:
 * entries are separated by commas outside braces, each counts once unless its braces give `count=N`. null when the
 * string does not parse; the data node would refuse to start with it.
 */
function fromThreadConfig(text: string): ThreadCounts | null {
  const counts: ThreadCounts = { main: 0, rep: 0, ldm: 0, query: 0, tc: 0, recv: 0, send: 0 };
  const entry = /\s*([a-z]+)\s*(?:=\s*\{([^}]*)\})?\s*(?:,|$)/gy;
  const lower = text.toLowerCase();
  let named = false;
  while (entry.lastIndex < lower.length) {
    const m = entry.exec(lower);
    if (!m) return null;
    const count = /(?:^|,)\s*count\s*=\s*(\d+)/.exec(m[2] ?? '');
    const n = count ? Number(count[1]) : 1;
    const name = m[1] as (typeof COUNTED)[number];
    if (COUNTED.includes(name)) counts[name] += n;
    named = true;
  }
  if (!named) return null;
  // ndbmtd always runs a receive thread: one is added when the string names none.
  counts.recv = Math.max(1, counts.recv);
  return counts;
}

/**
 * A data node's block threads as its configuration decides them, or null where it does not: AutomaticThreadConfig
 * sizes the threads from the host's CPUs at start, which the configuration does not hold. Read as the server's
 * Configuration.cpp reads it for ndbmtd: a non-empty ThreadConfig wins, else MaxNoOfExecutionThreads (0..3 → 1 LDM
 * thread, 4..6 → 2, 7..8 → 4, 9+ the table above).
 */
export function threadCounts(params: ConfigParams): ThreadCounts | null {
  if (Number(params['AutomaticThreadConfig'] ?? 0) !== 0) return null;
  const text = params['ThreadConfig'];
  return typeof text === 'string' && text.trim() !== '' ? fromThreadConfig(text) : fromMaxThreads(Number(params['MaxNoOfExecutionThreads'] ?? 0));
}

/**
 * A data node's TC and LQH instance counts as its configuration decides them (`threadCounts`), or null. With no tc (or ldm)
 * threads, each receive thread runs one DBTC (DBLQH) instance (newer servers; 8.0 ran one DBTC then, the same
 * number with the usual single receive thread).
 *
 * The binary is not in the configuration: a single-threaded ndbd ignores both parameters and runs 1 + 1. With
 * the defaults an ndbmtd runs 1 + 1 too; only a cluster that sets them for ndbd nodes reads high here.
 */
export function blockInstances(params: ConfigParams): BlockInstances | null {
  const threads = threadCounts(params);
  if (!threads) return null;
  return { tc: threads.tc || threads.recv, lqh: threads.ldm || threads.recv };
}

/** A ThreadConfig that gives a data node these instance counts (what the simulator puts in its configuration). */
export function threadConfigFor({ tc, lqh }: BlockInstances): string {
  return `main,rep,recv,ldm={count=${lqh}},tc={count=${tc}}`;
}
