import { threadCounts, type BlockInstances, type ConfigParams, type ThreadCounts } from '../../config/index.js';

export type ThreadKind = keyof ThreadCounts;

export interface DataNodeThread {
  /** ndbinfo's `thr_no`. */
  readonly thrNo: number;
  readonly kind: ThreadKind;
  /** Its number among the threads of its kind (the block instance it runs, less one, for ldm and tc). */
  readonly index: number;
}

/**
 * ndbinfo `threads.thread_description`. main, rep, ldm and recv are the manual's sample output (the `threads` table
 * page); the others are not in the sample and are written in the same manner (not confirmed from the source).
 */
export const THREAD_DESCRIPTIONS: Readonly<Record<ThreadKind, string>> = {
  main: 'main thread, schema and distribution handling',
  rep: 'rep thread, asynch replication and proxy block handling',
  ldm: 'ldm thread, handling a set of data partitions',
  query: 'query thread, handling queries and recovery',
  tc: 'tc thread, transaction handling, unique index and pushed join handling',
  recv: 'receive thread, performing receive and polling for new receives',
  send: 'send thread, aggregating and sending messages to other nodes',
};

/** Block threads are numbered main, rep, ldm, query, tc, recv, then send threads (the manual's sample: main 0, rep 1, ldm 2, recv 3). */
const ORDER: readonly ThreadKind[] = ['main', 'rep', 'ldm', 'query', 'tc', 'recv', 'send'];

/**
 * The block threads of a data node, from its configuration (ThreadConfig or MaxNoOfExecutionThreads, as the server's
 * mt_thr_config.cpp reads them); under AutomaticThreadConfig, which the configuration cannot decide, from the
 * instances the simulator runs. A ThreadConfig that names neither main nor rep still gets one of each (their
 * default count is 1).
 */
export function threadLayout(params: ConfigParams | undefined, instances: BlockInstances): DataNodeThread[] {
  const counts = (params && threadCounts(params)) ?? { main: 1, rep: 1, ldm: instances.lqh, query: 0, tc: instances.tc, recv: 1, send: 0 };
  const withDefaults: ThreadCounts = { ...counts, main: Math.max(1, counts.main), rep: Math.max(1, counts.rep) };
  const threads: DataNodeThread[] = [];
  for (const kind of ORDER) for (let i = 0; i < withDefaults[kind]; i++) threads.push({ thrNo: threads.length, kind, index: i });
  return threads;
}

export function countOf(threads: readonly DataNodeThread[], kind: ThreadKind): number {
  return threads.filter((t) => t.kind === kind).length;
}
