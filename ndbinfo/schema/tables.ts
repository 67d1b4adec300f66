// The ndbinfo tables ndbtop reads, with their columns in the server's order. One definition serves the SQL
// source (which columns to ask for, what a row means) and the simulator's SQL endpoint (which tables exist
// and how their columns are declared), so the two cannot drift apart.
// Source: ../shared/ndbinfo/ndbinfo-reference.md (NdbinfoTables.cpp, ndbinfo_sql.cpp, MySQL 8.4 manual).
// Column kinds follow NdbinfoTables.cpp: Number → INT UNSIGNED, Number64 → BIGINT UNSIGNED, String → VARCHAR(512).

export type ColumnKind = 'int' | 'bigint' | 'string';

export interface ColumnDef {
  readonly name: string;
  readonly kind: ColumnKind;
}

export interface TableDef {
  readonly name: string;
  readonly columns: readonly ColumnDef[];
}

const int = (name: string): ColumnDef => ({ name, kind: 'int' });
const big = (name: string): ColumnDef => ({ name, kind: 'bigint' });
const str = (name: string): ColumnDef => ({ name, kind: 'string' });

function table(name: string, columns: readonly ColumnDef[]): TableDef {
  return { name, columns };
}

// The views differ from the base tables in a few kinds (the view's CASE turns a number into text); the reference
// gives no type per view column, so a column is declared as what its values are: numbers as numbers.
const CPUSTAT_PERCENT = ['OS_user', 'OS_system', 'OS_idle', 'thread_exec', 'thread_sleeping', 'thread_spinning', 'thread_send', 'thread_buffer_full'];
const CPUSTAT_TIMES = ['OS_user_time', 'OS_system_time', 'OS_idle_time', 'exec_time', 'sleep_time', 'spin_time', 'send_time', 'buffer_full_time'];

const CPUDATA_COLUMNS = [int('cpu_no'), int('cpu_online'), ...['cpu_userspace_time', 'cpu_idle_time', 'cpu_system_time', 'cpu_interrupt_time', 'cpu_exec_vm_time'].map(big)];

/**
 * The per-phase seconds of `restart_info`, in the server's order (which is the order of a restart).
 * `secs_for_local_recovery` spans the four after it (restore, undo, redo, index rebuild): the others add up to
 * `total_restart_secs` (as DBDIH times phases between statuses; the simulator keeps to this).
 */
export const RESTART_PHASE_COLUMNS: readonly string[] = [
  'secs_to_complete_node_failure', 'secs_to_allocate_node_id', 'secs_to_include_in_heartbeat_protocol',
  'secs_until_wait_for_ndbcntr_master', 'secs_wait_for_ndbcntr_master', 'secs_to_get_start_permitted',
  'secs_to_wait_for_lcp_for_copy_meta_data', 'secs_to_copy_meta_data', 'secs_to_include_node',
  'secs_starting_node_to_request_local_recovery', 'secs_for_local_recovery', 'secs_restore_fragments',
  'secs_undo_disk_data', 'secs_exec_redo_log', 'secs_index_rebuild', 'secs_to_synchronize_starting_node',
  'secs_wait_lcp_for_restart', 'secs_wait_subscription_handover',
];

export const NDBINFO_TABLES: readonly TableDef[] = [
  // percentages of the last second; elapsed_time in µs
  table('cpustat', [int('node_id'), int('thr_no'), ...CPUSTAT_PERCENT.map(int), int('elapsed_time')]),
  // µs; 20 rows of history per thread
  ...['cpustat_50ms', 'cpustat_1sec', 'cpustat_20sec'].map((name) =>
    table(name, [int('node_id'), int('thr_no'), ...CPUSTAT_TIMES.map(big), big('elapsed_time')]),
  ),
  // 8.0.23+, Linux only: the data node host's CPUs. The reference lists the columns from cpu_no on; node_id is taken
  // to lead as in every other ndbinfo table (not confirmed). The unit of the *_time columns is not documented: ndbtop
  // reads only their shares of one CPU's total.
  table('cpudata', [int('node_id'), ...CPUDATA_COLUMNS]),
  ...['cpudata_1sec', 'cpudata_20sec'].map((name) => table(name, [int('node_id'), int('measurement_id'), ...CPUDATA_COLUMNS, big('elapsed_time')])),
  table('threads', [int('node_id'), int('thr_no'), str('thread_name'), str('thread_description')]),
  table('threadstat', [
    int('node_id'), int('thr_no'), str('thr_nm'),
    ...['c_loop', 'c_exec', 'c_wait', 'c_l_sent_prioa', 'c_l_sent_priob', 'c_r_sent_prioa', 'c_r_sent_priob'].map(big),
    big('os_tid'), big('os_now'),
    ...['os_ru_utime', 'os_ru_stime', 'os_ru_minflt', 'os_ru_majflt', 'os_ru_nvcsw', 'os_ru_nivcsw'].map(big),
  ]),
  table('threadblocks', [int('node_id'), int('thr_no'), str('block_name'), int('block_instance')]),
  // bytes and pages
  table('memoryusage', [int('node_id'), str('memory_type'), big('used'), int('used_pages'), big('total'), int('total_pages')]),
  // 32 KiB pages for reserved, used and max (MySQL 8.4 manual); spare's unit is not documented
  table('resources', [int('node_id'), str('resource_name'), int('reserved'), int('used'), int('max'), int('spare')]),
  // bytes
  table('logspaces', [int('node_id'), str('log_type'), int('log_id'), int('log_part'), big('total'), big('used')]),
  table('logbuffers', [int('node_id'), str('log_type'), int('log_id'), int('log_part'), big('total'), big('used')]),
  table('transporters', [
    int('node_id'), int('remote_node_id'), str('status'), str('remote_address'),
    big('bytes_sent'), big('bytes_received'), int('connect_count'),
    int('overloaded'), int('overload_count'), int('slowdown'), int('slowdown_count'),
    // In the view too from 8.3 (TLS between nodes): the MySQL 8.4 manual's transporters page lists it last.
    int('encrypted'),
  ]),
  // 8.3+: one row per transporter of a multi-transporter link. The reference gives the added columns but not where
  // they stand; this is the 8.4 manual's order (block_instance and trp_id after node_id), not confirmed from source.
  table('transporter_details', [
    int('node_id'), int('block_instance'), int('trp_id'), int('remote_node_id'), str('status'), str('remote_address'),
    big('bytes_sent'), big('bytes_received'), int('connect_count'),
    int('overloaded'), int('overload_count'), int('slowdown'), int('slowdown_count'), int('encrypted'),
    big('sendbuffer_used_bytes'), big('sendbuffer_max_used_bytes'), big('sendbuffer_alloc_bytes'), big('sendbuffer_max_alloc_bytes'),
  ]),
  // cumulative counters
  table('diskpagebuffer', [
    int('node_id'), int('block_instance'),
    ...['pages_written', 'pages_written_lcp', 'pages_read', 'log_waits', 'page_requests_direct_return', 'page_requests_wait_queue', 'page_requests_wait_io'].map(big),
  ]),
  // bytes/s; slowdowns cumulative
  table('disk_write_speed_aggregate_node', [
    int('node_id'),
    ...[
      'backup_lcp_speed_last_sec', 'redo_speed_last_sec', 'backup_lcp_speed_last_10sec', 'redo_speed_last_10sec',
      'std_dev_backup_lcp_speed_last_10sec', 'std_dev_redo_speed_last_10sec', 'backup_lcp_speed_last_60sec',
      'redo_speed_last_60sec', 'std_dev_backup_lcp_speed_last_60sec', 'std_dev_redo_speed_last_60sec',
      'slowdowns_due_to_io_lag', 'slowdowns_due_to_high_cpu', 'disk_write_speed_set_to_min', 'current_target_disk_write_speed',
    ].map(big),
  ]),
  // val only grows (since process start)
  table('counters', [int('node_id'), str('block_name'), int('block_instance'), int('counter_id'), str('counter_name'), big('val')]),
  // one row per node, its most recent restart; whole seconds
  table('restart_info', [
    int('node_id'), str('node_restart_status'), int('node_restart_status_int'),
    ...RESTART_PHASE_COLUMNS.map(int),
    int('total_restart_secs'),
  ]),
];

const BY_NAME = new Map(NDBINFO_TABLES.map((t) => [t.name, t]));

export function ndbinfoTable(name: string): TableDef | undefined {
  return BY_NAME.get(name.toLowerCase());
}

/**
 * `node_restart_status_int` as the server's `Dbdih::NodeRecoveryStatus` enum numbers it (the manual's table
 * numbers it differently). The text column is what to trust; this is the tie-breaker.
 */
export const NODE_RECOVERY_STATUS: readonly string[] = [
  'NOT_DEFINED_IN_CLUSTER', 'NODE_NOT_RESTARTED_YET', 'NODE_FAILED', 'NODE_FAILURE_COMPLETED', 'ALLOCATED_NODE_ID',
  'INCLUDED_IN_HB_PROTOCOL', 'NDBCNTR_START_WAIT', 'NDBCNTR_STARTED', 'START_PERMITTED', 'WAIT_LCP_TO_COPY_DICT',
  'COPY_DICT_TO_STARTING_NODE', 'INCLUDE_NODE_IN_LCP_AND_GCP', 'LOCAL_RECOVERY_STARTED', 'RESTORE_FRAG_COMPLETED',
  'UNDO_DD_COMPLETED', 'EXECUTE_REDO_LOG_COMPLETED', 'COPY_FRAGMENTS_STARTED', 'WAIT_LCP_FOR_RESTART',
  'WAIT_SUMA_HANDOVER', 'RESTART_COMPLETED',
];

/**
 * What the `node_restart_status` text column says for each status, from the manual's list of messages (which
 * numbers the statuses its own way, hence keyed by name). The manual lists no message for RESTORE_FRAG_COMPLETED,
 * UNDO_DD_COMPLETED and EXECUTE_REDO_LOG_COMPLETED, which the source has: those three texts are a guess ("Build
 * indexes ongoing" is seen in published output; the other two are not), and NOT_DEFINED_IN_CLUSTER has none.
 */
export const NODE_RECOVERY_STATUS_TEXT: Readonly<Record<string, string>> = {
  NOT_DEFINED_IN_CLUSTER: '',
  NODE_NOT_RESTARTED_YET: 'Initial state',
  NODE_FAILED: 'Node failed, failure handling in progress',
  NODE_FAILURE_COMPLETED: 'Node failure handling completed',
  ALLOCATED_NODE_ID: 'Allocated node id',
  INCLUDED_IN_HB_PROTOCOL: 'Included in heartbeat protocol',
  NDBCNTR_START_WAIT: 'Wait for NDBCNTR master to permit us to start',
  NDBCNTR_STARTED: 'NDBCNTR master permitted us to start',
  START_PERMITTED: 'All nodes permitted us to start',
  WAIT_LCP_TO_COPY_DICT: 'Wait for LCP completion to start copying metadata',
  COPY_DICT_TO_STARTING_NODE: 'Copying metadata to starting node',
  INCLUDE_NODE_IN_LCP_AND_GCP: 'Include node in LCP and GCP protocols',
  LOCAL_RECOVERY_STARTED: 'Restore fragments ongoing',
  RESTORE_FRAG_COMPLETED: 'Undo disk data ongoing',
  UNDO_DD_COMPLETED: 'Execute redo log ongoing',
  EXECUTE_REDO_LOG_COMPLETED: 'Build indexes ongoing',
  COPY_FRAGMENTS_STARTED: 'Synchronizing starting node with live nodes',
  WAIT_LCP_FOR_RESTART: 'Wait for LCP to ensure durability',
  WAIT_SUMA_HANDOVER: 'Wait for handover of subscriptions',
  RESTART_COMPLETED: 'Restart completed',
};
