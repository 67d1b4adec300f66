import { columnsOf, cpuRow, startHostileSqlNode } from '../ndbinfo/test/hostile-sql-node.js';

// A hostile SQL node in a process of its own (its memory is not the client's): every cpustat answer is ROWS rows.
const rows = Number(process.argv[2] ?? 1_000_000);
const node = await startHostileSqlNode(() => ({ kind: 'rows', columns: columnsOf('cpustat', ['thread_name']), count: rows, row: (i) => cpuRow(1 + (i % 144), i, 'ldm') }));
process.stdout.write(`${node.url}\n`);
process.on('SIGTERM', () => void node.close().then(() => process.exit(0)));
