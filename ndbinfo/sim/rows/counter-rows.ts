import { NODE_RECOVERY_STATUS, NODE_RECOVERY_STATUS_TEXT, RESTART_PHASE_COLUMNS } from '../../schema/tables.js';
import { whole, type Row, type TableRows } from './row-context.js';
import type { NodeTotals } from '../../../native-mgm/sim/activity/node-totals.js';

type Ops = NodeTotals['ops'];

/**
 * counter_id and counter_name as ndbinfo's counters view numbers them (ndbinfo_sql.cpp; ids recalled from the
 * source, not confirmed against it). DBTC's are per TC instance, DBLQH's per LDM instance.
 */
const TC_COUNTERS: ReadonlyArray<readonly [id: number, name: string, pick: (o: Ops) => number]> = [
  [1, 'ATTRINFO', (o) => o.attrinfo],
  [2, 'TRANSACTIONS', (o) => o.trans],
  [3, 'COMMITS', (o) => o.commits],
  [4, 'READS', (o) => o.reads],
  [5, 'SIMPLE_READS', (o) => o.simpleReads],
  [6, 'WRITES', (o) => o.writes],
  [7, 'ABORTS', (o) => o.aborts],
  [8, 'TABLE_SCANS', (o) => o.scans],
  [9, 'RANGE_SCANS', (o) => o.rangeScans],
  [24, 'LOCAL_READS', (o) => o.localReads],
  [25, 'LOCAL_WRITES', (o) => o.localWrites],
];
const LQH_OPERATIONS = 10;

export const counters: TableRows = ({ model, nodes }) =>
  nodes.flatMap((n) => {
    const ops = model.activity.nodeTotals(n.id).ops;
    const threads = model.activity.threads(n.id);
    // Instances as the statistics reports count them: each TC (LQH) instance handles an even share.
    const tcs = Math.max(1, threads.filter((t) => t.kind === 'tc').length || threads.filter((t) => t.kind === 'recv').length);
    const lqhs = Math.max(1, threads.filter((t) => t.kind === 'ldm').length || threads.filter((t) => t.kind === 'recv').length);
    const rows: Row[] = [];
    for (let i = 1; i <= tcs; i++) for (const [id, name, pick] of TC_COUNTERS) rows.push([n.id, 'DBTC', i, id, name, whole(pick(ops) / tcs)]);
    for (let i = 1; i <= lqhs; i++) rows.push([n.id, 'DBLQH', i, LQH_OPERATIONS, 'OPERATIONS', whole(ops.lqhOps / lqhs)]);
    return rows;
  });

/** One row per node that restarted since the simulator began: its last restart, done or in progress. */
export const restartInfo: TableRows = ({ model }) =>
  model.activity.restarts.nodesWithRestarts().flatMap((id) => {
    const r = model.activity.restarts.record(id);
    if (!r) return [];
    if (r.phaseSecs.length !== RESTART_PHASE_COLUMNS.length) throw new Error('restart_info phase columns out of step with the schema');
    return [[id, NODE_RECOVERY_STATUS_TEXT[NODE_RECOVERY_STATUS[r.status] ?? ''] ?? '', r.status, ...r.phaseSecs, r.totalSecs]];
  });
