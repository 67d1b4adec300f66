import { THREAD_DESCRIPTIONS, type DataNodeThread } from '../../../native-mgm/sim/activity/thread-layout.js';
import type { CpuPercentages } from '../../../native-mgm/sim/activity/cpu-model.js';
import { whole, type Row, type RowContext, type TableRows } from './row-context.js';

const PERCENT_COLUMNS: ReadonlyArray<keyof CpuPercentages> = ['OS_user', 'OS_system', 'OS_idle', 'thread_exec', 'thread_sleeping', 'thread_spinning', 'thread_send', 'thread_buffer_full'];

/** The blocks each kind of thread runs (one instance per ldm/tc thread), for threadblocks. */
const BLOCKS: Readonly<Record<DataNodeThread['kind'], readonly string[]>> = {
  main: ['CMVMI', 'DBDICT', 'DBDIH', 'NDBCNTR', 'QMGR', 'NDBFS', 'TRIX', 'DBUTIL', 'DBINFO', 'THRMAN'],
  rep: ['SUMA', 'DBTUX', 'BACKUP', 'DBLQH', 'DBACC', 'DBTUP', 'LGMAN', 'PGMAN', 'RESTORE', 'THRMAN'],
  ldm: ['DBTUX', 'BACKUP', 'DBLQH', 'DBACC', 'DBTUP', 'LGMAN', 'PGMAN', 'RESTORE', 'THRMAN'],
  query: ['DBQTUX', 'QBACKUP', 'DBQLQH', 'DBQACC', 'DBQTUP', 'QRESTORE', 'THRMAN'],
  tc: ['DBTC', 'DBSPJ', 'THRMAN'],
  recv: ['CMVMI', 'TRPMAN', 'THRMAN'],
  send: [],
};

export const threads: TableRows = ({ model, nodes }) =>
  nodes.flatMap((n) => model.activity.threads(n.id).map((t): Row => [n.id, t.thrNo, t.kind, THREAD_DESCRIPTIONS[t.kind]]));

export const cpustat: TableRows = ({ model, nodes, at }) =>
  nodes.flatMap((n) => model.activity.cpuAt(n, at).map((c, thrNo): Row => [n.id, thrNo, ...PERCENT_COLUMNS.map((k) => c[k]), 1_000_000]));

/** cpustat_50ms / _1sec / _20sec: the last 20 periods of each thread, times in µs. */
function cpuHistory(periodMs: number): TableRows {
  return ({ model, nodes, at }) =>
    nodes.flatMap((n) => {
      const rows: Row[] = [];
      const periodUs = periodMs * 1000;
      for (let k = 19; k >= 0; k--) {
        const end = Math.floor(at / periodMs) * periodMs - k * periodMs;
        model.activity.cpuAt(n, end, Math.floor(end / periodMs)).forEach((c, thrNo) => {
          const us = (pct: number): number => Math.round((pct * periodUs) / 100);
          rows.push([n.id, thrNo, us(c.OS_user), us(c.OS_system), us(c.OS_idle), us(c.thread_exec), us(c.thread_sleeping), us(c.thread_spinning), us(c.thread_send), us(c.thread_buffer_full), periodUs]);
        });
      }
      return rows;
    });
}
export const cpustat50ms = cpuHistory(50);
export const cpustat1sec = cpuHistory(1000);
export const cpustat20sec = cpuHistory(20_000);

/** Signals executed per µs of execution, and loops per ms of elapsed time: orders of magnitude, not measured. */
const SIGNALS_PER_US = 1.5;
const LOOPS_PER_MS = 20;

export const threadstat: TableRows = ({ model, nodes, at }: RowContext) =>
  nodes.flatMap((n) => {
    const totals = model.activity.nodeTotals(n.id);
    return model.activity.threads(n.id).map((t, thrNo): Row => {
      const tt = totals.threads[thrNo] ?? { execUs: 0, sendUs: 0, elapsedUs: 0 };
      const exec = whole(tt.execUs * SIGNALS_PER_US);
      const loops = whole((tt.elapsedUs / 1000) * LOOPS_PER_MS);
      return [
        n.id, thrNo, t.kind, loops, exec, whole(loops - exec / 100),
        whole(exec * 0.01), whole(exec * 0.2), whole(exec * 0.02), whole(exec * 0.3),
        10_000 + n.id * 100 + thrNo, whole(at), whole(tt.execUs * 0.85), whole(tt.execUs * 0.15),
        whole(2000 + tt.elapsedUs / 1e6), 0, whole(tt.elapsedUs / 1e4), whole(tt.execUs / 1e4),
      ];
    });
  });

export const threadblocks: TableRows = ({ model, nodes }) =>
  nodes.flatMap((n) =>
    model.activity.threads(n.id).flatMap((t) => {
      // Proxy blocks (instance 0) live in rep; ldm and tc threads run instance index + 1 of theirs.
      const instance = t.kind === 'ldm' || t.kind === 'tc' || t.kind === 'query' ? t.index + 1 : 0;
      return BLOCKS[t.kind].map((block): Row => [n.id, t.thrNo, block, block === 'THRMAN' ? t.thrNo + 1 : instance]);
    }),
  );

/**
 * cpudata (8.0.23+): the host's CPUs. The simulator gives each block thread a CPU of its own (as ThreadConfig's
 * cpubind does) and shows that CPU as the OS sees its thread; interrupts and virtual machines take nothing. Times
 * in µs, which the reference leaves undocumented (a reader should use shares of the CPU's total only).
 */
function hostCpuRows(ctx: RowContext, n: RowContext['nodes'][number], end: number, periodUs: number, measurement?: number): Row[] {
  return ctx.model.activity.cpuAt(n, end, measurement === undefined ? undefined : Math.floor(end / (periodUs / 1000))).map((c, cpuNo): Row => {
    const us = (pct: number): number => Math.round((pct * periodUs) / 100);
    const times = [us(c.OS_user), us(c.OS_idle), us(c.OS_system), 0, 0];
    return measurement === undefined ? [n.id, cpuNo, 1, ...times] : [n.id, measurement, cpuNo, 1, ...times, periodUs];
  });
}

export const cpudata: TableRows = (ctx) => ctx.nodes.flatMap((n) => hostCpuRows(ctx, n, ctx.at, 1_000_000));

function cpudataHistory(periodMs: number): TableRows {
  return (ctx) =>
    ctx.nodes.flatMap((n) => {
      const rows: Row[] = [];
      for (let k = 19; k >= 0; k--) rows.push(...hostCpuRows(ctx, n, Math.floor(ctx.at / periodMs) * periodMs - k * periodMs, periodMs * 1000, 19 - k));
      return rows;
    });
}
export const cpudata1sec = cpudataHistory(1000);
export const cpudata20sec = cpudataHistory(20_000);
