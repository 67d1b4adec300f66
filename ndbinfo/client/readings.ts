import { NDBINFO_TABLES, NODE_RECOVERY_STATUS, RESTART_PHASE_COLUMNS, type ColumnDef, type TableDef } from '../schema/tables.js';
import { MAX_NODES, MAX_THREADS_PER_NODE } from './answer-limits.js';
import type { CounterRates } from './counter-rates.js';
import { fieldName, type RowValue } from './parse-row.js';
import type { DiskPageBufferRow, PerSecond, ReadingKey, ReadingRows, RestartRow, ThreadCpuRow } from './rows.js';

function tableDef(name: string): TableDef {
  const def = NDBINFO_TABLES.find((t) => t.name === name);
  if (!def) throw new Error(`ndbinfo/schema/tables.ts has no table ${name}`);
  return def;
}

const quote = (name: string): string => `\`${name}\``;

/** A query of one reading: what to send and how the answer's columns are declared. */
export interface ReadingQuery {
  readonly sql: string;
  readonly table: TableDef;
  readonly columns: readonly ColumnDef[];
}

export interface BuildContext {
  readonly rates: CounterRates;
  /** When the answer arrived (ms since the epoch): the time every figure of it was observed. */
  readonly at: number;
}

/** What discovery found on the SQL node: the wanted tables it has, and each one's columns. */
export interface SchemaSeen {
  readonly present: ReadonlySet<string>;
  /** Lower case: MySQL's column names are not case-sensitive (`OS_user`). */
  readonly columns: ReadonlyMap<string, ReadonlySet<string>>;
}

export interface ReadingDef<K extends ReadingKey = ReadingKey> {
  readonly key: K;
  /** The table whose presence the reading needs (found once per connection). */
  readonly table: string;
  readonly intervalMs: number;
  /** The most rows one data node can give this table: the answer's row limit is this times the data nodes, plus a margin. */
  readonly rowsPerNode: number;
  /** Dropped first when the SQL node's self-load is over budget; the thread and restart views are kept longest. */
  readonly essential: boolean;
  /** Columns the reading cannot do without, beyond those every release has: without them it is not run. */
  readonly needs?: readonly string[];
  query(schema: SchemaSeen): ReadingQuery;
  build(row: Record<string, RowValue>, ctx: BuildContext): ReadingRows[K];
}

/**
 * The columns of `name` in the server's order that this SQL node has (`schema`; a release may lack newer ones), but
 * those `without` (columns newer servers added that the reading does not need), ordered by its key columns so
 * output is stable.
 */
function wholeTable(name: string, orderBy: readonly string[], schema?: SchemaSeen, without: readonly string[] = []): ReadingQuery {
  const table = tableDef(name);
  const has = schema?.columns.get(name);
  const columns = table.columns.filter((c) => !without.includes(c.name) && (!has || has.has(c.name.toLowerCase())));
  const sql = `SELECT ${columns.map((c) => quote(c.name)).join(', ')} FROM ndbinfo.${quote(name)} ORDER BY ${orderBy.map(quote).join(', ')}`;
  return { sql, table, columns };
}

/**
 * ndb_top's query (ndbinfo-reference.md) for every data node at once instead of one `node_id`; without a `threads`
 * table the thread names are null rather than the reading gone.
 */
function cpuQuery({ present }: SchemaSeen): ReadingQuery {
  const table = tableDef('cpustat');
  const threadName: ColumnDef = { name: 'thread_name', kind: 'string' };
  const cols = table.columns.map((c) => `cs.${quote(c.name)}`).join(', ');
  if (!present.has('threads')) return { sql: `SELECT ${cols} FROM ndbinfo.cpustat AS cs ORDER BY cs.node_id, cs.thr_no`, table, columns: table.columns };
  return {
    sql: `SELECT ${cols}, ts.thread_name FROM ndbinfo.cpustat AS cs, ndbinfo.threads AS ts WHERE cs.thr_no = ts.thr_no AND cs.node_id = ts.node_id ORDER BY cs.node_id, cs.thr_no`,
    table,
    columns: [...table.columns, threadName],
  };
}

/** The row's counters as per-second rates, keyed by the reading and the row's identity. */
function perSecond<K extends string>(ctx: BuildContext, id: string, row: Record<string, RowValue>, counters: readonly K[]): PerSecond<K> {
  const out = {} as PerSecond<K>;
  for (const k of counters) out[k] = ctx.rates.rate(`${id}:${k}`, row[k] as number, ctx.at);
  return out;
}

function ratio(hits: number, misses: number): number | null {
  return hits + misses > 0 ? hits / (hits + misses) : null;
}

const TRANSPORTER_COUNTERS = ['bytesSent', 'bytesReceived', 'overloadCount', 'slowdownCount'] as const;
const DISK_PAGE_COUNTERS = ['pagesWritten', 'pagesWrittenLcp', 'pagesRead', 'logWaits', 'pageRequestsDirectReturn', 'pageRequestsWaitQueue', 'pageRequestsWaitIo'] as const;
const DISK_WRITE_COUNTERS = ['slowdownsDueToIoLag', 'slowdownsDueToHighCpu', 'diskWriteSpeedSetToMin'] as const;

const as = <T>(row: Record<string, RowValue>): T => row as unknown as T;

function restartRow(row: Record<string, RowValue>): RestartRow {
  const statusInt = row.nodeRestartStatusInt as number;
  const phases: Record<string, number> = {};
  for (const column of RESTART_PHASE_COLUMNS) phases[column] = row[fieldName(column)] as number;
  return {
    nodeId: row.nodeId as number,
    status: row.nodeRestartStatus as string,
    statusInt,
    statusName: NODE_RECOVERY_STATUS[statusInt] ?? null,
    phases,
    totalSecs: row.totalRestartSecs as number,
  };
}

function diskPageBufferRow(row: Record<string, RowValue>, ctx: BuildContext): DiskPageBufferRow {
  const r = as<Omit<DiskPageBufferRow, 'perSec' | 'hitRatio' | 'hitRatioSinceStart'>>(row);
  const perSec = perSecond(ctx, `dpb:${r.nodeId}:${r.blockInstance}`, row, DISK_PAGE_COUNTERS);
  const { pageRequestsDirectReturn: hits, pageRequestsWaitIo: misses } = perSec;
  return {
    ...r,
    perSec,
    hitRatio: hits === null || misses === null ? null : ratio(hits, misses),
    hitRatioSinceStart: ratio(r.pageRequestsDirectReturn, r.pageRequestsWaitIo),
  };
}

const SECOND = 1000;
/** restart_info between restarts; every second while a node is starting (see NdbinfoSource). */
export const RESTART_INTERVAL_MS = 30 * SECOND;

/** Rows per data node of the small tables: log parts (NoOfLogParts ≤ 32, per log type), memory kinds, resources. */
const LOG_PARTS = 128;
const KINDS = 64;
/** Transporters per link with multiple transporters (NodeGroupTransporters; its maximum is not confirmed). */
const MULTI_TRANSPORTERS = 32;

function def<K extends ReadingKey>(d: ReadingDef<K>): ReadingDef<K> {
  return d;
}

/** What the source reads, each on its own interval, and only where its table exists. */
export const READINGS: readonly ReadingDef[] = [
  def({ key: 'cpu', table: 'cpustat', intervalMs: SECOND, rowsPerNode: MAX_THREADS_PER_NODE, essential: true, query: cpuQuery, build: (row) => ({ ...as<ThreadCpuRow>(row), threadName: (row.threadName as string | undefined) ?? null }) }),
  def({ key: 'restarts', table: 'restart_info', intervalMs: RESTART_INTERVAL_MS, rowsPerNode: 1, essential: true, query: () => wholeTable('restart_info', ['node_id']), build: restartRow }),
  def({ key: 'logspaces', table: 'logspaces', intervalMs: 5 * SECOND, rowsPerNode: LOG_PARTS, essential: false, query: () => wholeTable('logspaces', ['node_id', 'log_type', 'log_id', 'log_part']), build: as }),
  def({ key: 'logbuffers', table: 'logbuffers', intervalMs: 5 * SECOND, rowsPerNode: LOG_PARTS, essential: false, query: () => wholeTable('logbuffers', ['node_id', 'log_type', 'log_id', 'log_part']), build: as }),
  def({
    key: 'transporters',
    table: 'transporters',
    intervalMs: 2 * SECOND,
    rowsPerNode: MAX_NODES,
    essential: false,
    // `encrypted` came with 8.3's TLS; the view of 8.0 has no such column.
    query: () => wholeTable('transporters', ['node_id', 'remote_node_id'], undefined, ['encrypted']),
    build: (row, ctx) => ({ ...as(row), perSec: perSecond(ctx, `trp:${row.nodeId}:${row.remoteNodeId}`, row, TRANSPORTER_COUNTERS) }),
  }),
  def({
    key: 'transporterDetails',
    table: 'transporter_details',
    intervalMs: 2 * SECOND,
    rowsPerNode: MAX_NODES * MULTI_TRANSPORTERS,
    essential: false,
    // Read for the send buffers alone.
    needs: ['sendbuffer_used_bytes', 'sendbuffer_alloc_bytes'],
    query: (schema) => wholeTable('transporter_details', ['node_id', 'remote_node_id', 'trp_id'], schema),
    build: (row, ctx) => ({ ...as(row), perSec: perSecond(ctx, `trpd:${row.nodeId}:${row.remoteNodeId}:${row.trpId}`, row, TRANSPORTER_COUNTERS) }),
  }),
  def({ key: 'memory', table: 'memoryusage', intervalMs: 5 * SECOND, rowsPerNode: KINDS, essential: false, query: () => wholeTable('memoryusage', ['node_id', 'memory_type']), build: as }),
  def({ key: 'resources', table: 'resources', intervalMs: 5 * SECOND, rowsPerNode: KINDS, essential: false, query: () => wholeTable('resources', ['node_id', 'resource_name']), build: as }),
  def({ key: 'diskPageBuffer', table: 'diskpagebuffer', intervalMs: 5 * SECOND, rowsPerNode: MAX_THREADS_PER_NODE, essential: false, query: () => wholeTable('diskpagebuffer', ['node_id', 'block_instance']), build: diskPageBufferRow }),
  def({
    key: 'diskWriteSpeed',
    table: 'disk_write_speed_aggregate_node',
    intervalMs: 5 * SECOND,
    rowsPerNode: 1,
    essential: false,
    query: () => wholeTable('disk_write_speed_aggregate_node', ['node_id']),
    build: (row, ctx) => ({ ...as(row), perSec: perSecond(ctx, `dws:${row.nodeId}`, row, DISK_WRITE_COUNTERS) }),
  }),
  // The host's CPUs beside the threads' (8.0.23+, Linux only): one row per CPU of each data node's host.
  def({ key: 'hostCpu', table: 'cpudata', intervalMs: 2 * SECOND, rowsPerNode: MAX_THREADS_PER_NODE, essential: false, query: (schema) => wholeTable('cpudata', ['node_id', 'cpu_no'], schema), build: as }),
];

/** The typed rows of one answer whose rows were checked as they came (readRow): built once it was complete. */
export function buildRows<K extends ReadingKey>(reading: ReadingDef<K>, rows: ReadonlyArray<Record<string, RowValue>>, ctx: BuildContext): ReadingRows[K][] {
  return rows.map((row) => reading.build(row, ctx));
}
