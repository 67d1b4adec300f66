import { NDBINFO_TABLES } from '../../schema/tables.js';
import { counters, restartInfo } from './counter-rows.js';
import { diskpagebuffer, diskWriteSpeedAggregateNode, logbuffers, logspaces } from './log-rows.js';
import { memoryusage, resources } from './memory-rows.js';
import type { TableRows } from './row-context.js';
import { cpudata, cpudata1sec, cpudata20sec, cpustat, cpustat1sec, cpustat20sec, cpustat50ms, threadblocks, threads, threadstat } from './thread-rows.js';
import { transporterDetails, transporters } from './transporter-rows.js';

export type { Cell, Row, RowContext, TableRows } from './row-context.js';

/** Every ndbinfo table the schema defines, and how its rows come from the model. */
export const TABLE_ROWS: Readonly<Record<string, TableRows>> = {
  cpustat,
  cpustat_50ms: cpustat50ms,
  cpustat_1sec: cpustat1sec,
  cpustat_20sec: cpustat20sec,
  cpudata,
  cpudata_1sec: cpudata1sec,
  cpudata_20sec: cpudata20sec,
  threads,
  threadstat,
  threadblocks,
  memoryusage,
  resources,
  logspaces,
  logbuffers,
  transporters,
  transporter_details: transporterDetails,
  diskpagebuffer,
  disk_write_speed_aggregate_node: diskWriteSpeedAggregateNode,
  counters,
  restart_info: restartInfo,
};

for (const t of NDBINFO_TABLES) if (!TABLE_ROWS[t.name]) throw new Error(`no rows for ndbinfo.${t.name}`);
