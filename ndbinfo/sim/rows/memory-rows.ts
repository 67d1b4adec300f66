import { DATA_BLOCK, INDEX_BLOCK } from '../../../native-mgm/sim/workload/memory.js';
import type { Row, TableRows } from './row-context.js';

/** The long message buffer counts 256-byte pages; its use follows the operations in flight. */
const LMB_PAGE_BYTES = 256;
const LMB_DEFAULT_BYTES = 64 * 1024 * 1024;
const LMB_BYTES_PER_OP_PER_SEC = 0.05;
const PAGE_BYTES = 32768;
/** NDB 8.0.0, packed (spec §5.5). */
const INDEX_MEMORY_UNTIL = 8 << 16;

function lmb(ctx: Parameters<TableRows>[0], nodeId: number): { used: number; total: number } {
  const params = ctx.model.config?.nodes.find((n) => n.nodeId === nodeId)?.params;
  const total = Math.floor(Number(params?.['LongMessageBuffer'] ?? LMB_DEFAULT_BYTES) / LMB_PAGE_BYTES);
  const node = ctx.model.data.get(nodeId)!;
  const load = ctx.model.activity.loadAt(node, ctx.at);
  return { used: Math.min(total, Math.round(16 + ((load.tcOps + load.replicaWrites) * LMB_BYTES_PER_OP_PER_SEC) / LMB_PAGE_BYTES)), total };
}

/**
 * memoryusage: the same pools, in the same pages, as the management side's MemoryUsage reports (DBTUP data memory,
 * DBACC index memory), plus the long message buffer.
 */
export const memoryusage: TableRows = (ctx) =>
  ctx.nodes.flatMap((n) => {
    const rows: Row[] = [];
    for (const p of ctx.model.memory.pools(n.id)) {
      // "Index memory" only before 8.0 (the ndbinfo reference), whose DataMemory took IndexMemory in.
      const name = p.block === DATA_BLOCK ? 'Data memory' : p.block === INDEX_BLOCK && ctx.model.version < INDEX_MEMORY_UNTIL ? 'Index memory' : null;
      if (name) rows.push([n.id, name, p.usedPages * p.pageBytes, p.usedPages, p.totalPages * p.pageBytes, p.totalPages]);
    }
    const l = lmb(ctx, n.id);
    rows.push([n.id, 'Long message buffer', l.used * LMB_PAGE_BYTES, l.used, l.total * LMB_PAGE_BYTES, l.total]);
    return rows;
  });

/** resources, in 32 KiB pages: DATA_MEMORY is the data memory pool of memoryusage; the others are fixed reservations. */
export const resources: TableRows = (ctx) =>
  ctx.nodes.flatMap((n) => {
    const data = ctx.model.memory.pools(n.id).find((p) => p.block === DATA_BLOCK);
    const dataPages = data ? Math.round((data.usedPages * data.pageBytes) / PAGE_BYTES) : 0;
    const dataTotal = data ? Math.round((data.totalPages * data.pageBytes) / PAGE_BYTES) : 0;
    const load = ctx.model.activity.loadAt(n, ctx.at);
    const txPages = Math.round(64 + (load.tcOps * 0.0004 * 1024) / PAGE_BYTES);
    const resource = (name: string, reserved: number, used: number, max: number): Row => [n.id, name, reserved, used, max, 0];
    return [
      resource('RESERVED', 4096, 3400, 0),
      resource('TRANSACTION_MEMORY', 2048, txPages, 0),
      resource('DATA_MEMORY', dataTotal, dataPages, 0),
      resource('JOBBUFFER', 1024, 128 + Math.round(txPages / 4), 1024),
      resource('TRANSPORTER_BUFFERS', 256, 8 + Math.round(txPages / 8), 2048),
      resource('DISK_PAGE_BUFFER', 2048, 2048, 0),
      resource('QUERY_MEMORY', 0, Math.round(txPages / 16), 0),
      resource('SCHEMA_TRANS_MEMORY', 64, 1, 0),
    ];
  });
