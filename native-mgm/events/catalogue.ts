/**
 * The one event catalogue (spec §6.6): client, simulator and UI all read it, so an event's name, category,
 * threshold and fields are written down exactly once.
 */

export const CATEGORY_NUMBERS = {
  STARTUP: 250,
  SHUTDOWN: 251,
  STATISTICS: 252,
  CHECKPOINT: 253,
  NODERESTART: 254,
  CONNECTION: 255,
  INFO: 256,
  WARNING: 257,
  ERROR: 258,
  CONGESTION: 259,
  DEBUG: 260,
  BACKUP: 261,
  SCHEMA: 262,
} as const;
export type Category = keyof typeof CATEGORY_NUMBERS;
export const CATEGORIES = Object.keys(CATEGORY_NUMBERS) as Category[];

/** Category names `listen event` accepts; WARNING is reachable only as the number 257 (spec §6.1). */
export const FILTER_CATEGORY_NAMES: readonly Category[] = CATEGORIES.filter((c) => c !== 'WARNING');

/** Severity numbers as `set logfilter` and the cluster log use them (spec §6.7). */
export const SEVERITY_NUMBERS = { DEBUG: 1, INFO: 2, WARNING: 3, ERROR: 4, CRITICAL: 5, ALERT: 6 } as const;
export type Severity = keyof typeof SEVERITY_NUMBERS;

export interface EventFieldSpec {
  name: string;
  /** Body word the field is read from; word 0 is the (source << 16 | type) header. */
  word: number;
  /** Truly signed values (MemoryUsage gth); every other field is an unsigned word printed with %d. */
  signed?: boolean;
}

export interface EventTypeSpec {
  id: number;
  name: string;
  category: Category;
  /** Delivered to a listener when threshold <= the listener's level for the category. */
  threshold: number;
  severity: Severity;
  /** null: no field table, the record carries the raw body words as `data=`. */
  fields: readonly EventFieldSpec[] | null;
}

type FieldList = readonly (string | [string, number])[];

function fieldsOf(list: FieldList | null, signed: readonly string[] = []): EventFieldSpec[] | null {
  if (list === null) return null;
  return list.map((f, i) => {
    const [name, word] = typeof f === 'string' ? [f, i + 1] : f;
    return signed.includes(name) ? { name, word, signed: true } : { name, word };
  });
}

function ev(
  id: number,
  name: string,
  category: Category,
  threshold: number,
  severity: Severity,
  fields: FieldList | null,
  signed?: readonly string[],
): EventTypeSpec {
  return { id, name, category, threshold, severity, fields: fieldsOf(fields, signed) };
}

const RESTORE_PROGRESS = ['backup_id', 'node_id', 'n_records_lo', 'n_records_hi', 'n_bytes_lo', 'n_bytes_hi'];
const TRANS_FIELDS = [
  'trans_count',
  'commit_count',
  'read_count',
  'simple_read_count',
  'write_count',
  'attrinfo_count',
  'conc_op_count',
  'abort_count',
  'scan_count',
  'range_scan_count',
];

const ALL: EventTypeSpec[] = [
  // CONNECTION (255)
  ev(0, 'Connected', 'CONNECTION', 8, 'INFO', ['node']),
  ev(1, 'Disconnected', 'CONNECTION', 8, 'ALERT', ['node']),
  ev(2, 'CommunicationClosed', 'CONNECTION', 8, 'INFO', ['node']),
  ev(3, 'CommunicationOpened', 'CONNECTION', 8, 'INFO', ['node']),
  ev(51, 'ConnectedApiVersion', 'CONNECTION', 8, 'INFO', ['node', 'version']),
  // CHECKPOINT (253)
  ev(4, 'GlobalCheckpointStarted', 'CHECKPOINT', 9, 'INFO', ['gci']),
  ev(5, 'GlobalCheckpointCompleted', 'CHECKPOINT', 10, 'INFO', ['gci']),
  ev(6, 'LocalCheckpointStarted', 'CHECKPOINT', 7, 'INFO', ['lci', 'keep_gci', 'restore_gci']),
  ev(7, 'LocalCheckpointCompleted', 'CHECKPOINT', 7, 'INFO', ['lci']),
  ev(8, 'LCPStoppedInCalcKeepGci', 'CHECKPOINT', 0, 'ALERT', ['data']),
  ev(9, 'LCPFragmentCompleted', 'CHECKPOINT', 11, 'INFO', ['node', 'table_id', 'fragment_id']),
  ev(38, 'UndoLogBlocked', 'CHECKPOINT', 7, 'INFO', ['acc_count', 'tup_count']),
  ev(73, 'RedoStatus', 'CHECKPOINT', 7, 'INFO', [
    'log_part',
    'head_file_no',
    'head_mbyte',
    'tail_file_no',
    'tail_mbyte',
    'total_hi',
    'total_lo',
    'free_hi',
    'free_lo',
    'no_logfiles',
    'logfilesize',
  ]),
  // STARTUP (250)
  ev(10, 'NDBStartStarted', 'STARTUP', 1, 'INFO', ['version']),
  ev(11, 'NDBStartCompleted', 'STARTUP', 1, 'INFO', ['version']),
  ev(12, 'STTORRYRecieved', 'STARTUP', 15, 'INFO', null),
  ev(13, 'StartPhaseCompleted', 'STARTUP', 4, 'INFO', ['phase', 'starttype']),
  ev(14, 'CM_REGCONF', 'STARTUP', 3, 'INFO', ['own_id', 'president_id', 'dynamic_id']),
  ev(15, 'CM_REGREF', 'STARTUP', 8, 'INFO', ['own_id', 'other_id', 'cause']),
  // left_id reads word 3 like right_id: the server's table has that mistake and prints it (spec §6.6.3).
  ev(16, 'FIND_NEIGHBOURS', 'STARTUP', 8, 'INFO', ['own_id', ['left_id', 3], ['right_id', 3], ['dynamic_id', 4]]),
  ev(17, 'NDBStopStarted', 'STARTUP', 1, 'INFO', ['stoptype']),
  ev(53, 'NDBStopCompleted', 'STARTUP', 1, 'INFO', ['action', 'signum']),
  ev(59, 'NDBStopForced', 'STARTUP', 1, 'ALERT', ['action', 'signum', 'error', 'sphase', 'extra']),
  ev(18, 'NDBStopAborted', 'STARTUP', 1, 'INFO', null),
  ev(86, 'LCPRestored', 'STARTUP', 7, 'INFO', ['restored_lcp_id']),
  ev(19, 'StartREDOLog', 'STARTUP', 4, 'INFO', ['node', 'keep_gci', 'completed_gci', 'restorable_gci']),
  ev(20, 'StartLog', 'STARTUP', 10, 'INFO', ['log_part', 'start_mb', 'stop_mb', 'gci']),
  ev(21, 'UNDORecordsExecuted', 'STARTUP', 15, 'INFO', [
    'block',
    ...Array.from({ length: 10 }, (_, i) => `data${i + 1}`),
  ]),
  ev(60, 'StartReport', 'STARTUP', 4, 'INFO', null),
  ev(71, 'LogFileInitStatus', 'STARTUP', 7, 'INFO', ['node_id', 'total_files', 'file_done', 'total_mbytes', 'mbytes_done']),
  ev(72, 'LogFileInitCompStatus', 'STARTUP', 7, 'INFO', null),
  ev(77, 'StartReadLCP', 'STARTUP', 10, 'INFO', null),
  ev(78, 'ReadLCPComplete', 'STARTUP', 10, 'INFO', null),
  ev(79, 'RunRedo', 'STARTUP', 8, 'INFO', null),
  ev(80, 'RebuildIndex', 'STARTUP', 10, 'INFO', null),
  // NODERESTART (254)
  ev(22, 'NR_CopyDict', 'NODERESTART', 7, 'INFO', null),
  ev(23, 'NR_CopyDistr', 'NODERESTART', 7, 'INFO', null),
  ev(24, 'NR_CopyFragsStarted', 'NODERESTART', 7, 'INFO', ['dest_node']),
  ev(25, 'NR_CopyFragDone', 'NODERESTART', 10, 'INFO', ['dest_node', 'table_id', 'fragment_id']),
  ev(26, 'NR_CopyFragsCompleted', 'NODERESTART', 7, 'INFO', ['dest_node']),
  ev(27, 'NodeFailCompleted', 'NODERESTART', 8, 'ALERT', ['block', 'failed_node', 'completing_node']),
  ev(28, 'NODE_FAILREP', 'NODERESTART', 8, 'ALERT', ['failed_node', 'failure_state']),
  ev(29, 'ArbitState', 'NODERESTART', 6, 'INFO', ['code', 'arbit_node', 'ticket_0', 'ticket_1']),
  ev(30, 'ArbitResult', 'NODERESTART', 2, 'ALERT', ['code', 'arbit_node', 'ticket_0', 'ticket_1']),
  ev(31, 'GCP_TakeoverStarted', 'NODERESTART', 7, 'INFO', null),
  ev(32, 'GCP_TakeoverCompleted', 'NODERESTART', 7, 'INFO', null),
  ev(33, 'LCP_TakeoverStarted', 'NODERESTART', 7, 'INFO', null),
  ev(34, 'LCP_TakeoverCompleted', 'NODERESTART', 7, 'INFO', ['state']),
  ev(82, 'ConnectCheckStarted', 'NODERESTART', 6, 'INFO', null),
  ev(83, 'ConnectCheckCompleted', 'NODERESTART', 6, 'INFO', null),
  ev(84, 'NodeFailRejected', 'NODERESTART', 6, 'ALERT', null),
  // STATISTICS (252)
  ev(35, 'TransReportCounters', 'STATISTICS', 8, 'INFO', TRANS_FIELDS),
  ev(36, 'OperationReportCounters', 'STATISTICS', 8, 'INFO', ['ops']),
  ev(37, 'TableCreated', 'STATISTICS', 7, 'INFO', ['table_id']),
  ev(39, 'JobStatistic', 'STATISTICS', 9, 'INFO', ['mean_loop_count']),
  ev(68, 'ThreadConfigLoop', 'STATISTICS', 9, 'INFO', null),
  ev(40, 'SendBytesStatistic', 'STATISTICS', 9, 'INFO', ['to_node', 'mean_sent_bytes']),
  ev(41, 'ReceiveBytesStatistic', 'STATISTICS', 9, 'INFO', ['from_node', 'mean_received_bytes']),
  ev(50, 'MemoryUsage', 'STATISTICS', 5, 'INFO', ['gth', 'page_size_bytes', 'pages_used', 'pages_total', 'block'], ['gth']),
  ev(70, 'MTSignalStatistics', 'STATISTICS', 9, 'INFO', [
    'mt_deliver_thread',
    'mt_prioa_count',
    'mt_prioa_size',
    'mt_priob_count',
    'mt_priob_size',
  ]),
  // SCHEMA (262)
  ev(74, 'CreateSchemaObject', 'SCHEMA', 8, 'INFO', null),
  ev(75, 'AlterSchemaObject', 'SCHEMA', 8, 'INFO', null),
  ev(76, 'DropSchemaObject', 'SCHEMA', 8, 'INFO', null),
  // ERROR (258). LateHeartbeat is left out: its numeric id is unverified (spec §12); it arrives as a generic event.
  ev(42, 'TransporterError', 'ERROR', 2, 'ERROR', ['to_node', 'code']),
  ev(43, 'TransporterWarning', 'ERROR', 8, 'WARNING', ['to_node', 'code']),
  ev(44, 'MissedHeartbeat', 'ERROR', 8, 'WARNING', ['node', 'count']),
  ev(45, 'DeadDueToHeartbeat', 'ERROR', 8, 'ALERT', ['node']),
  ev(46, 'WarningEvent', 'ERROR', 2, 'WARNING', null),
  ev(69, 'SubscriptionStatus', 'ERROR', 4, 'WARNING', null),
  // INFO (256)
  ev(47, 'SentHeartbeat', 'INFO', 12, 'INFO', ['node']),
  ev(48, 'CreateLogBytes', 'INFO', 11, 'INFO', ['node']),
  ev(49, 'InfoEvent', 'INFO', 2, 'INFO', null),
  ev(58, 'EventBufferStatus', 'INFO', 7, 'INFO', [
    'usage',
    'alloc',
    'max',
    'apply_gci_l',
    'apply_gci_h',
    'latest_gci_l',
    'latest_gci_h',
  ]),
  ev(85, 'EventBufferStatus2', 'INFO', 7, 'INFO', [
    'usage',
    'alloc',
    'max',
    'latest_consumed_epoch_l',
    'latest_consumed_epoch_h',
    'latest_buffered_epoch_l',
    'latest_buffered_epoch_h',
    'ndb_reference',
    'report_reason',
  ]),
  ev(87, 'EventBufferStatus3', 'INFO', 7, 'INFO', [
    'usage_l',
    'alloc_l',
    'max_l',
    'latest_consumed_epoch_l',
    'latest_consumed_epoch_h',
    'latest_buffered_epoch_l',
    'latest_buffered_epoch_h',
    'ndb_reference',
    'report_reason',
    'usage_h',
    'alloc_h',
    'max_h',
  ]),
  ev(52, 'SingleUser', 'INFO', 7, 'INFO', ['type', 'node_id']),
  ev(81, 'SavedEvent', 'INFO', 7, 'INFO', null),
  // BACKUP (261)
  ev(54, 'BackupStarted', 'BACKUP', 7, 'INFO', ['starting_node', 'backup_id']),
  ev(62, 'BackupStatus', 'BACKUP', 7, 'INFO', [
    'starting_node',
    'backup_id',
    'n_bytes_lo',
    'n_bytes_hi',
    'n_records_lo',
    'n_records_hi',
    'n_log_bytes_lo',
    'n_log_bytes_hi',
    'n_log_records_lo',
    'n_log_records_hi',
  ]),
  ev(56, 'BackupCompleted', 'BACKUP', 7, 'INFO', [
    'starting_node',
    'backup_id',
    'start_gci',
    'stop_gci',
    'n_bytes',
    'n_records',
    'n_log_bytes',
    'n_log_records',
    ['n_bytes_hi', 11],
    ['n_records_hi', 12],
    ['n_log_bytes_hi', 13],
    ['n_log_records_hi', 14],
  ]),
  ev(55, 'BackupFailedToStart', 'BACKUP', 7, 'ALERT', ['starting_node', 'error']),
  ev(57, 'BackupAborted', 'BACKUP', 7, 'ALERT', ['starting_node', 'backup_id', 'error']),
  ev(66, 'RestoreStarted', 'BACKUP', 7, 'INFO', ['backup_id', 'node_id']),
  ev(63, 'RestoreMetaData', 'BACKUP', 7, 'INFO', [
    'backup_id',
    'node_id',
    'n_tables',
    'n_tablespaces',
    'n_logfilegroups',
    'n_datafiles',
    'n_undofiles',
  ]),
  ev(64, 'RestoreData', 'BACKUP', 7, 'INFO', RESTORE_PROGRESS),
  ev(65, 'RestoreLog', 'BACKUP', 7, 'INFO', RESTORE_PROGRESS),
  ev(67, 'RestoreCompleted', 'BACKUP', 7, 'INFO', ['backup_id', 'node_id']),
];

export const EVENT_TYPES: ReadonlyMap<number, EventTypeSpec> = new Map(ALL.map((e) => [e.id, e]));
export const EVENT_TYPES_BY_NAME: ReadonlyMap<string, EventTypeSpec> = new Map(ALL.map((e) => [e.name, e]));

export function eventTypeByName(name: string): EventTypeSpec {
  const spec = EVENT_TYPES_BY_NAME.get(name);
  if (!spec) throw new Error(`no event type named ${name}`);
  return spec;
}

/**
 * The filter ndbtop subscribes with (spec §6.1): everything a monitor needs, including the per-instance
 * statistics (STATISTICS=8), without the per-GCP and per-heartbeat floods.
 */
export const MONITOR_FILTER: Readonly<Partial<Record<Category, number>>> = {
  STARTUP: 15,
  NODERESTART: 15,
  CONNECTION: 8,
  STATISTICS: 8,
  CHECKPOINT: 7,
  BACKUP: 15,
  ERROR: 15,
  INFO: 7,
  SCHEMA: 8,
};
