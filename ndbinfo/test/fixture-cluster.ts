import { NDBINFO_TABLES, RESTART_PHASE_COLUMNS, type TableDef } from '../schema/tables.js';
import { createTable, insertRows, type FixtureValue } from './ndbinfo-fixture.js';
import type { MariaDbServer } from './mariadb-server.js';

type Rows = Record<string, ReadonlyArray<Record<string, FixtureValue>>>;

const cpu = (node: number, thr: number, base: number): Record<string, FixtureValue> => ({
  node_id: node, thr_no: thr, OS_user: base, OS_system: base + 1, OS_idle: 100 - 2 * base - 1, thread_exec: base + 2, thread_sleeping: 90 - base,
  thread_spinning: 3, thread_send: 4, thread_buffer_full: 0, elapsed_time: 1_000_123,
});

const phases = (node: number): Record<string, FixtureValue> =>
  Object.fromEntries(RESTART_PHASE_COLUMNS.map((c, i) => [c, node * 100 + i]));

/**
 * A two-data-node cluster's ndbinfo, with chosen values: bytes beyond 2^32 (BIGINT), a node mid-restart, text with
 * a control character and a right-to-left override (which the CLI must print escaped). `logbuffers` and `transporter_details` are left out.
 */
/** An escape sequence, and U+202E, which would show the rest of the line ("KO") backwards: "OK". */
export const HOSTILE_THREAD_NAME = 'ldm\x1b[31m\u202eKO';

export const FIXTURE_ROWS: Rows = {
  cpustat: [cpu(1, 0, 10), cpu(1, 1, 20), cpu(2, 0, 30), cpu(2, 1, 40)],
  threads: [
    { node_id: 1, thr_no: 0, thread_name: 'main', thread_description: 'main thread' },
    { node_id: 1, thr_no: 1, thread_name: 'ldm', thread_description: 'ldm thread' },
    { node_id: 2, thr_no: 0, thread_name: 'main', thread_description: 'main thread' },
    { node_id: 2, thr_no: 1, thread_name: HOSTILE_THREAD_NAME, thread_description: 'ldm thread' },
  ],
  restart_info: [
    { node_id: 1, node_restart_status: 'Restart completed', node_restart_status_int: 19, ...phases(1), total_restart_secs: 1234 },
    { node_id: 2, node_restart_status: 'Executing redo log', node_restart_status_int: 14, ...phases(2), total_restart_secs: 0 },
  ],
  logspaces: [
    { node_id: 1, log_type: 'REDO', log_id: 0, log_part: 0, total: 536_870_912, used: 1_048_576 },
    { node_id: 1, log_type: 'DD-UNDO', log_id: 4, log_part: 0, total: 134_217_728, used: 0 },
    { node_id: 2, log_type: 'REDO', log_id: 0, log_part: 0, total: 536_870_912, used: 2_097_152 },
  ],
  transporters: [
    { node_id: 1, remote_node_id: 2, status: 'CONNECTED', remote_address: '10.0.0.2', bytes_sent: 5_000_000_000, bytes_received: 4_000_000_123, connect_count: 1, overloaded: 0, overload_count: 2, slowdown: 1, slowdown_count: 3, encrypted: 1 },
    { node_id: 2, remote_node_id: 1, status: 'CONNECTED', remote_address: '10.0.0.1', bytes_sent: 4_000_000_123, bytes_received: 5_000_000_000, connect_count: 1, overloaded: 1, overload_count: 5, slowdown: 0, slowdown_count: 0, encrypted: 0 },
  ],
  memoryusage: [
    { node_id: 1, memory_type: 'Data memory', used: 1_073_741_824, used_pages: 32768, total: 8_589_934_592, total_pages: 262144 },
    { node_id: 2, memory_type: 'Long message buffer', used: 262_144, used_pages: 8, total: 67_108_864, total_pages: 2048 },
  ],
  // Node 1's host: one CPU a quarter busy, one offline (left out of the figure).
  cpudata: [
    { node_id: 1, cpu_no: 0, cpu_online: 1, cpu_userspace_time: 200, cpu_idle_time: 750, cpu_system_time: 40, cpu_interrupt_time: 6, cpu_exec_vm_time: 4 },
    { node_id: 1, cpu_no: 1, cpu_online: 0, cpu_userspace_time: 0, cpu_idle_time: 0, cpu_system_time: 0, cpu_interrupt_time: 0, cpu_exec_vm_time: 0 },
  ],
  resources: [{ node_id: 1, resource_name: 'DATA_MEMORY', reserved: 0, used: 32768, max: 262144, spare: 0 }],
  diskpagebuffer: [{ node_id: 1, block_instance: 1, pages_written: 10, pages_written_lcp: 5, pages_read: 7, log_waits: 0, page_requests_direct_return: 900, page_requests_wait_queue: 3, page_requests_wait_io: 100 }],
  disk_write_speed_aggregate_node: [
    {
      node_id: 1, backup_lcp_speed_last_sec: 1_000_000, redo_speed_last_sec: 2_000_000, backup_lcp_speed_last_10sec: 900_000, redo_speed_last_10sec: 1_900_000,
      std_dev_backup_lcp_speed_last_10sec: 1000, std_dev_redo_speed_last_10sec: 2000, backup_lcp_speed_last_60sec: 800_000, redo_speed_last_60sec: 1_800_000,
      std_dev_backup_lcp_speed_last_60sec: 3000, std_dev_redo_speed_last_60sec: 4000, slowdowns_due_to_io_lag: 6, slowdowns_due_to_high_cpu: 7,
      disk_write_speed_set_to_min: 8, current_target_disk_write_speed: 10_000_000,
    },
  ],
};

export const LEFT_OUT = ['logbuffers', 'transporter_details'];

export const SQL_USER = 'ndbtop';
export const SQL_PASSWORD = 'Pw-9f3kQ-never-print';

const table = (name: string): TableDef => NDBINFO_TABLES.find((t) => t.name === name) as TableDef;

/** The ndbinfo schema with FIXTURE_ROWS, a monitoring user (password, mysql_native_password) and a schema-less server's user. */
export function fillNdbinfo(server: MariaDbServer): void {
  const ddl = Object.entries(FIXTURE_ROWS).flatMap(([name, rows]) => [createTable(table(name)), insertRows(table(name), rows)]);
  server.sql([
    'DROP DATABASE IF EXISTS ndbinfo;',
    // utf8mb4: the hostile thread name holds U+202E, which latin1 (the server's default) cannot store.
    'CREATE DATABASE ndbinfo CHARACTER SET utf8mb4;',
    ...ddl,
    `CREATE USER IF NOT EXISTS '${SQL_USER}'@'127.0.0.1' IDENTIFIED VIA mysql_native_password USING PASSWORD('${SQL_PASSWORD}');`,
    `GRANT SELECT ON ndbinfo.* TO '${SQL_USER}'@'127.0.0.1';`,
    // A user who sees no ndbinfo schema: to this monitor the same as a plain MySQL server.
    `CREATE USER IF NOT EXISTS 'plain'@'127.0.0.1' IDENTIFIED VIA mysql_native_password USING PASSWORD('${SQL_PASSWORD}');`,
  ].join('\n'));
}
