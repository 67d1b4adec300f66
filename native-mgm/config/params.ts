/**
 * The one table of configuration keys: number → config.ini name, value type, unit and, per section type, the
 * server's default. Numbers are from the server's `mgmapi_config_parameters.h`, names, types and defaults from
 * `ConfigInfo.cpp` (8.0) and the default sections of the real blob in mysql-ndb-operator's
 * `config_reader_test.go` (an 8.0 ndb_mgmd), which is where most defaults were read. A key not in this table is
 * kept by its number, never dropped.
 *
 * Not certain (say so where shown): 11 `Dedicated`, 657 `__WatchDogImmediateKill`, 672 `SpinTimePerCall`,
 * 678 `KeepAliveSendInterval`, 680 `EncryptedFileSystem` (numbers from a newer header than the names were checked
 * against); 161 StringMemory's default (5 in the blob, 25 in older ConfigInfo); 186's default (10 in the blob).
 * ConfigInfo spells 185 `Nodegroup`; config.ini names are case-insensitive and we print `NodeGroup`.
 */
export type ConfigSectionType = 'DB' | 'API' | 'MGM' | 'TCP' | 'SHM' | 'SYSTEM';
export type ConfigValueType = 'int' | 'int64' | 'string';
/** How a value reads to a person: bytes as MiB/GiB, times with their unit, booleans as Y/N. */
export type ConfigUnit = 'bytes' | 'bytes/s' | 'ms' | 's' | 'us' | 'bool' | '%' | null;
export type ConfigValue = number | string;

export interface ConfigParam {
  key: number;
  name: string;
  type: ConfigValueType;
  unit: ConfigUnit;
  /** The section types that have this key, each with the server's default (null: none, or mandatory). */
  defaults: Partial<Record<ConfigSectionType, ConfigValue | null>>;
  /** The number or name was not confirmed against the 8.0–9.x sources. */
  uncertain?: true;
}

type Row = [key: number, name: string, type: ConfigValueType, unit: ConfigUnit, defaults: ConfigParam['defaults'], uncertain?: true];

const DB = (v: ConfigValue | null = null) => ({ DB: v });

const ROWS: Row[] = [
  // Common to node sections
  [3, 'NodeId', 'int', null, { DB: null, API: null, MGM: null }],
  [5, 'HostName', 'string', null, { DB: 'localhost', API: '', MGM: '' }],
  [6, 'System', 'string', null, { DB: null, API: null, MGM: null }],
  [7, 'DataDir', 'string', null, { DB: '.', MGM: '' }],
  [9, 'TotalSendBufferMemory', 'int', 'bytes', { DB: 0, API: 0, MGM: 0 }],
  [10, 'LocationDomainId', 'int', null, { DB: null, API: null, MGM: null }],
  [11, 'Dedicated', 'int', 'bool', { DB: 0, API: 0, MGM: 0 }, true],
  [200, 'ArbitrationRank', 'int', null, { API: 0, MGM: 1 }],
  [201, 'ArbitrationDelay', 'int', 'ms', { API: 0, MGM: 0 }],
  [203, 'ExtraSendBufferMemory', 'int64', 'bytes', { DB: 0, API: 0, MGM: 0 }],
  [642, '__debug_mixology_level', 'int', null, { DB: 0, API: 0, MGM: 0 }],
  [806, 'DefaultHashmapSize', 'int', null, { DB: 0, API: 0 }],
  // Data nodes
  [1, 'RestartOnErrorInsert', 'int', null, DB(2)],
  [100, 'MaxNoOfSavedMessages', 'int', null, DB(25)],
  [101, 'NoOfReplicas', 'int', null, DB(2)],
  [102, 'MaxNoOfTables', 'int', null, DB(128)],
  [103, 'MaxNoOfAttributes', 'int', null, DB(1000)],
  [105, 'MaxNoOfTriggers', 'int', null, DB(768)],
  [106, 'MaxNoOfConcurrentTransactions', 'int', null, DB(4096)],
  [107, 'MaxNoOfConcurrentOperations', 'int', null, DB(32768)],
  [108, 'MaxNoOfConcurrentScans', 'int', null, DB(256)],
  [109, 'MaxNoOfFiredTriggers', 'int', null, DB(4000)],
  [110, 'MaxNoOfConcurrentIndexOperations', 'int', null, DB(8192)],
  [111, 'TransactionBufferMemory', 'int', 'bytes', DB(1048576)],
  [112, 'DataMemory', 'int64', 'bytes', DB(102760448)],
  [113, 'IndexMemory', 'int64', 'bytes', DB(0)],
  [114, 'LockPagesInMainMemory', 'int', null, DB(0)],
  [115, 'StartPartialTimeout', 'int', 'ms', DB(30000)],
  [116, 'StartPartitionedTimeout', 'int', 'ms', DB(0)],
  [117, 'StartFailureTimeout', 'int', 'ms', DB(0)],
  [118, 'HeartbeatIntervalDbDb', 'int', 'ms', DB(5000)],
  [119, 'HeartbeatIntervalDbApi', 'int', 'ms', DB(1500)],
  [120, 'TimeBetweenLocalCheckpoints', 'int', null, DB(20)],
  [121, 'TimeBetweenGlobalCheckpoints', 'int', 'ms', DB(2000)],
  [122, 'ArbitrationTimeout', 'int', 'ms', DB(7500)],
  [123, 'TimeBetweenWatchDogCheck', 'int', 'ms', DB(6000)],
  [124, 'StopOnError', 'int', 'bool', DB(1)],
  [125, 'FileSystemPath', 'string', null, DB()],
  [126, 'NoOfFragmentLogFiles', 'int', null, DB(16)],
  [129, 'TimeBetweenInactiveTransactionAbortCheck', 'int', 'ms', DB(1000)],
  [130, 'TransactionInactiveTimeout', 'int', 'ms', DB(4294967039)],
  [131, 'TransactionDeadlockDetectionTimeout', 'int', 'ms', DB(1200)],
  [132, 'ParallelBackups', 'int', null, DB(1)],
  [133, 'BackupMemory', 'int', 'bytes', DB(33554432)],
  [134, 'BackupDataBufferSize', 'int', 'bytes', DB(1048576)],
  [135, 'BackupLogBufferSize', 'int', 'bytes', DB(16777216)],
  [136, 'BackupWriteSize', 'int', 'bytes', DB(262144)],
  [139, 'BackupMaxWriteSize', 'int', 'bytes', DB(1048576)],
  [140, 'FragmentLogFileSize', 'int', 'bytes', DB(16777216)],
  [141, 'TimeBetweenWatchDogCheckInitial', 'int', 'ms', DB(6000)],
  [142, 'Arbitration', 'int', null, DB(1)],
  [147, 'LogDestination', 'string', null, { MGM: null }],
  [148, 'Diskless', 'int', 'bool', DB(0)],
  [149, 'MaxNoOfOrderedIndexes', 'int', null, DB(128)],
  [150, 'MaxNoOfUniqueHashIndexes', 'int', null, DB(64)],
  [151, 'MaxNoOfLocalOperations', 'int', null, DB()],
  [152, 'MaxNoOfLocalScans', 'int', null, DB()],
  [153, 'BatchSizePerLocalScan', 'int', null, DB(256)],
  [154, 'UndoIndexBuffer', 'int', 'bytes', DB(2097152)],
  [155, 'UndoDataBuffer', 'int', 'bytes', DB(16777216)],
  [156, 'RedoBuffer', 'int', 'bytes', DB(33554432)],
  [157, 'LongMessageBuffer', 'int', 'bytes', DB(67108864)],
  [158, 'BackupDataDir', 'string', null, DB()],
  [159, 'MaxNoOfOpenFiles', 'int', null, DB()],
  [160, 'DiskPageBufferMemory', 'int64', 'bytes', DB(67108864)],
  [161, 'StringMemory', 'int', null, DB(5)],
  [162, 'InitialNoOfOpenFiles', 'int', null, DB(27)],
  [163, 'DiskSyncSize', 'int', 'bytes', DB(4194304)],
  [166, 'MemReportFrequency', 'int', 's', DB(0)],
  [167, 'BackupReportFrequency', 'int', 's', DB(0)],
  [168, 'ODirect', 'int', 'bool', DB(0)],
  [169, 'MaxAllocate', 'int', 'bytes', DB(33554432)],
  [170, 'TimeBetweenEpochs', 'int', 'ms', DB(100)],
  [171, 'TimeBetweenEpochsTimeout', 'int', 'ms', DB(0)],
  [172, 'CompressedBackup', 'int', 'bool', DB(0)],
  [173, 'CompressedLCP', 'int', 'bool', DB(0)],
  [174, 'SchedulerExecutionTimer', 'int', 'us', DB(50)],
  [175, 'SchedulerSpinTimer', 'int', 'us', DB(0)],
  [176, 'RealtimeScheduler', 'int', 'bool', DB(0)],
  [177, 'LockExecuteThreadToCPU', 'string', null, DB()],
  [178, 'LockMaintThreadsToCPU', 'int', null, DB()],
  [179, 'MaxNoOfSubscriptions', 'int', null, DB(0)],
  [180, 'MaxNoOfSubscribers', 'int', null, DB(0)],
  [181, 'MaxNoOfConcurrentSubOperations', 'int', null, DB(256)],
  [182, 'MaxBufferedEpochs', 'int', null, DB(100)],
  [184, 'StartupStatusReportFrequency', 'int', 's', DB(0)],
  [185, 'NodeGroup', 'int', null, DB()],
  [186, 'MaxNoOfExecutionThreads', 'int', null, DB(10)],
  [189, 'InitFragmentLogFiles', 'string', null, DB('sparse')],
  [190, 'DiskIOThreadPool', 'int', null, DB(2)],
  [193, 'FileSystemPathDD', 'string', null, DB()],
  [194, 'FileSystemPathDataFiles', 'string', null, DB()],
  [195, 'FileSystemPathUndoFiles', 'string', null, DB()],
  [196, 'InitialLogfileGroup', 'string', null, DB()],
  [197, 'InitialTablespace', 'string', null, DB()],
  [198, 'SharedGlobalMemory', 'int64', 'bytes', DB(134217728)],
  [205, 'DiskPageBufferEntries', 'int', null, DB(10)],
  [206, 'TimeBetweenGlobalCheckpointsTimeout', 'int', 'ms', DB(120000)],
  [250, 'LogLevelStartup', 'int', null, DB(1)],
  [251, 'LogLevelShutdown', 'int', null, DB(0)],
  [252, 'LogLevelStatistic', 'int', null, DB(0)],
  [253, 'LogLevelCheckpoint', 'int', null, DB(0)],
  [254, 'LogLevelNodeRestart', 'int', null, DB(0)],
  [255, 'LogLevelConnection', 'int', null, DB(0)],
  [256, 'LogLevelInfo', 'int', null, DB(0)],
  [258, 'LogLevelError', 'int', null, DB(0)],
  [259, 'LogLevelCongestion', 'int', null, DB(0)],
  [350, 'MaxBufferedEpochBytes', 'int', 'bytes', DB(26214400)],
  [605, 'MaxLCPStartDelay', 'int', 's', DB(0)],
  [606, 'BuildIndexThreads', 'int', null, DB(128)],
  [607, 'HeartbeatOrder', 'int', null, DB(0)],
  [608, 'DictTrace', 'int', null, DB()],
  [609, 'MaxStartFailRetries', 'int', null, DB(3)],
  [610, 'StartFailRetryDelay', 'int', 's', DB(0)],
  [611, 'RedoOverCommitLimit', 'int', 's', DB(20)],
  [612, 'RedoOverCommitCounter', 'int', null, DB(3)],
  [613, 'EventLogBufferSize', 'int', 'bytes', DB(8192)],
  [614, 'Numa', 'int', null, DB(1)],
  [615, 'LateAlloc', 'int', null, DB(1)],
  [616, 'TwoPassInitialNodeRestartCopy', 'int', 'bool', DB(1)],
  [617, 'MaxParallelScansPerFragment', 'int', null, DB(256)],
  [618, 'ConnectCheckIntervalDelay', 'int', 'ms', DB(0)],
  [619, 'StartNoNodegroupTimeout', 'int', 'ms', DB(15000)],
  [620, 'IndexStatAutoCreate', 'int', null, DB(0)],
  [621, 'IndexStatAutoUpdate', 'int', null, DB(0)],
  [622, 'IndexStatSaveSize', 'int', 'bytes', DB(32768)],
  [623, 'IndexStatSaveScale', 'int', null, DB(100)],
  [624, 'IndexStatTriggerPct', 'int', null, DB(100)],
  [625, 'IndexStatTriggerScale', 'int', null, DB(100)],
  [626, 'IndexStatUpdateDelay', 'int', 's', DB(60)],
  [627, 'MaxDMLOperationsPerTransaction', 'int', null, DB(4294967295)],
  [628, 'ThreadConfig', 'string', null, DB()],
  [629, 'CrashOnCorruptedTuple', 'int', 'bool', DB(1)],
  [630, 'MinFreePct', 'int', '%', DB(5)],
  [631, 'LcpScanProgressTimeout', 'int', 's', DB(180)],
  [632, 'NoOfFragmentLogParts', 'int', null, DB(4)],
  [633, '__at_restart_skip_indexes', 'int', 'bool', DB(0)],
  [634, '__at_restart_skip_fks', 'int', 'bool', DB(0)],
  [635, 'ServerPort', 'int', null, DB()],
  [636, 'TcpBind_INADDR_ANY', 'int', 'bool', DB(0)],
  [637, 'RestartSubscriberConnectTimeout', 'int', 'ms', DB(120000)],
  [638, 'MinDiskWriteSpeed', 'int64', 'bytes/s', DB(10485760)],
  [639, 'MaxDiskWriteSpeed', 'int64', 'bytes/s', DB(20971520)],
  [640, 'MaxDiskWriteSpeedOtherNodeRestart', 'int64', 'bytes/s', DB(52428800)],
  [641, 'MaxDiskWriteSpeedOwnRestart', 'int64', 'bytes/s', DB(209715200)],
  [643, 'MaxParallelCopyInstances', 'int', null, DB(0)],
  [644, 'MaxSendDelay', 'int', 'us', DB(0)],
  [645, 'BackupDiskWriteSpeedPct', 'int', '%', DB(50)],
  [646, 'SchedulerResponsiveness', 'int', null, DB(5)],
  [647, '__sched_scan_priority', 'int', null, DB(16)],
  [648, '__disk_data_format', 'int', null, DB(1)],
  [649, 'EnablePartialLcp', 'int', 'bool', DB(1)],
  [650, 'ODirectSyncFlag', 'int', 'bool', DB(0)],
  [651, 'MaxUIBuildBatchSize', 'int', null, DB(64)],
  [652, 'MaxFKBuildBatchSize', 'int', null, DB(64)],
  [653, 'MaxReorgBuildBatchSize', 'int', null, DB(64)],
  [654, 'RecoveryWork', 'int', '%', DB(60)],
  [655, 'UseShm', 'int', 'bool', DB(0)],
  [656, 'InsertRecoveryWork', 'int', '%', DB(40)],
  [657, '__WatchDogImmediateKill', 'int', 'bool', DB(0), true],
  [658, 'EnableRedoControl', 'int', 'bool', DB(1)],
  [659, 'EnableMultithreadedBackup', 'int', 'bool', DB(1)],
  [660, 'ReservedConcurrentIndexOperations', 'int', null, DB(0)],
  [661, 'ReservedFiredTriggers', 'int', null, DB(0)],
  [662, 'ReservedConcurrentOperations', 'int', null, DB(0)],
  [663, 'ReservedLocalScans', 'int', null, DB(0)],
  [664, 'ReservedConcurrentTransactions', 'int', null, DB(0)],
  [665, 'ReservedConcurrentScans', 'int', null, DB(0)],
  [666, 'ReservedTransactionBufferMemory', 'int', 'bytes', DB(0)],
  [667, 'TransactionMemory', 'int64', 'bytes', DB(0)],
  [668, 'MaxDiskDataLatency', 'int', 'ms', DB(0)],
  [669, 'DiskDataUsingSameDisk', 'int', 'bool', DB(1)],
  [670, 'NodeGroupTransporters', 'int', null, DB(1)],
  [671, 'SpinMethod', 'string', null, DB('StaticSpinning')],
  [672, 'SpinTimePerCall', 'int', 'us', DB(), true],
  [673, 'RequireEncryptedBackup', 'int', 'bool', DB(0)],
  [674, 'PartitionsPerNode', 'int', null, DB(2)],
  [675, 'ClassicFragmentation', 'int', 'bool', DB(1)],
  [676, 'NumCPUs', 'int', null, DB(0)],
  [677, 'AutomaticThreadConfig', 'int', 'bool', DB(0)],
  [678, 'KeepAliveSendInterval', 'int', 'ms', DB(), true],
  [680, 'EncryptedFileSystem', 'int', 'bool', DB(), true],
  // Management servers
  [204, 'HeartbeatIntervalMgmdMgmd', 'int', 'ms', { MGM: 1500 }],
  [300, 'PortNumber', 'int', null, { MGM: 1186 }],
  // API nodes
  [800, 'MaxScanBatchSize', 'int', 'bytes', { API: 262144 }],
  [801, 'BatchByteSize', 'int', 'bytes', { API: 16384 }],
  [802, 'BatchSize', 'int', null, { API: 256 }],
  [803, 'AutoReconnect', 'int', 'bool', { API: 1 }],
  [804, 'HeartbeatThreadPriority', 'string', null, { API: null, MGM: null }],
  [805, 'DefaultOperationRedoProblemAction', 'int', null, { API: 1 }],
  [807, 'ConnectBackoffMaxTime', 'int', 'ms', { API: 1500 }],
  [808, 'StartConnectBackoffMaxTime', 'int', 'ms', { API: 0 }],
  [809, 'ApiVerbose', 'int', null, { API: null }],
];

/** Connection sections (TCP, SHM) have their own key range. */
const CONNECTION_ROWS: Row[] = [
  [400, 'NodeId1', 'int', null, { TCP: null, SHM: null }],
  [401, 'NodeId2', 'int', null, { TCP: null, SHM: null }],
  [402, 'SendSignalId', 'int', 'bool', { TCP: 1, SHM: 0 }],
  [403, 'Checksum', 'int', 'bool', { TCP: 0, SHM: 1 }],
  [404, 'NodeId1_System', 'string', null, { TCP: null, SHM: null }],
  [405, 'NodeId2_System', 'string', null, { TCP: null, SHM: null }],
  [406, 'PortNumber', 'int', null, { TCP: 0, SHM: 0 }],
  [407, 'HostName1', 'string', null, { TCP: '', SHM: '' }],
  [408, 'HostName2', 'string', null, { TCP: '', SHM: '' }],
  [409, 'Group', 'int', null, { TCP: 55, SHM: 35 }],
  [410, 'NodeIdServer', 'int', null, { TCP: null, SHM: null }],
  [411, 'OverloadLimit', 'int', 'bytes', { TCP: 0, SHM: 0 }],
  [412, 'PreSendChecksum', 'int', 'bool', { TCP: 0, SHM: 0 }],
  [413, 'AllowUnresolvedHostNames', 'int', 'bool', { TCP: 0 }],
  [414, 'PreferIPVersion', 'int', null, { TCP: 4 }],
  [454, 'SendBufferMemory', 'int', 'bytes', { TCP: 2097152 }],
  [455, 'ReceiveBufferMemory', 'int', 'bytes', { TCP: 2097152 }],
  [456, 'Proxy', 'string', null, { TCP: null }],
  [457, 'TCP_RCV_BUF_SIZE', 'int', 'bytes', { TCP: 0 }],
  [458, 'TCP_SND_BUF_SIZE', 'int', 'bytes', { TCP: 0 }],
  [459, 'TCP_MAXSEG_SIZE', 'int', 'bytes', { TCP: 0 }],
  [460, 'TcpBind_INADDR_ANY', 'int', 'bool', { TCP: 0 }],
  [461, 'TcpSpinTime', 'int', 'us', { TCP: 0 }],
  [502, 'ShmKey', 'int', null, { SHM: null }],
  [503, 'ShmSize', 'int', 'bytes', { SHM: 4194304 }],
  [505, 'ShmSpintime', 'int', 'us', { SHM: 0 }],
  [506, 'SendBufferMemory', 'int', 'bytes', { SHM: 2097152 }],
];

const SYSTEM_ROWS: Row[] = [
  [1, 'PrimaryMGMNode', 'int', null, { SYSTEM: 0 }],
  [2, 'ConfigGenerationNumber', 'int', null, { SYSTEM: 0 }],
  [3, 'Name', 'string', null, { SYSTEM: null }],
];

export type KeyScope = 'node' | 'connection' | 'system';

const toParam = ([key, name, type, unit, defaults, uncertain]: Row): ConfigParam => ({ key, name, type, unit, defaults, ...(uncertain ? { uncertain } : {}) });

const BY_SCOPE: Record<KeyScope, ConfigParam[]> = {
  node: ROWS.map(toParam),
  connection: CONNECTION_ROWS.map(toParam),
  system: SYSTEM_ROWS.map(toParam),
};

const byKey = (scope: KeyScope) => new Map(BY_SCOPE[scope].map((p) => [p.key, p]));
const byName = (scope: KeyScope) => {
  const m = new Map<string, ConfigParam[]>();
  for (const p of BY_SCOPE[scope]) m.set(p.name.toLowerCase(), [...(m.get(p.name.toLowerCase()) ?? []), p]);
  return m;
};
const KEYS: Record<KeyScope, Map<number, ConfigParam>> = { node: byKey('node'), connection: byKey('connection'), system: byKey('system') };
const NAMES: Record<KeyScope, Map<string, ConfigParam[]>> = { node: byName('node'), connection: byName('connection'), system: byName('system') };

export function scopeOf(section: ConfigSectionType): KeyScope {
  return section === 'SYSTEM' ? 'system' : section === 'TCP' || section === 'SHM' ? 'connection' : 'node';
}

export function paramByKey(scope: KeyScope, key: number): ConfigParam | undefined {
  return KEYS[scope].get(key);
}

/**
 * Case-insensitive, as config.ini. A name can mean two keys of one scope (SendBufferMemory: 454 for TCP, 506 for
 * SHM), so give the section type where it matters.
 */
export function paramByName(scope: KeyScope, name: string, section?: ConfigSectionType): ConfigParam | undefined {
  const all = NAMES[scope].get(name.toLowerCase()) ?? [];
  return (section === undefined ? undefined : all.find((p) => section in p.defaults)) ?? all[0];
}

/** What a key is called in `params`: its config.ini name, or its number when the table does not know it. */
export function keyName(scope: KeyScope, key: number): string {
  return paramByKey(scope, key)?.name ?? String(key);
}

/** Every parameter of a section type, for tools that list them (the renderer's table, the CLI). */
export function paramsOf(section: ConfigSectionType): ConfigParam[] {
  return BY_SCOPE[scopeOf(section)].filter((p) => section in p.defaults);
}

/** The server's default of a parameter in a section type, or undefined when it has none. */
export function defaultOf(section: ConfigSectionType, name: string): ConfigValue | undefined {
  const p = paramByName(scopeOf(section), name, section);
  const d = p?.defaults[section];
  return d === null ? undefined : d;
}

/** NodeGroup of a data node in no node group (NDB_NO_NODEGROUP). */
export const NO_NODEGROUP = 65536;
