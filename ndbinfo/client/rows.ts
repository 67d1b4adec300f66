// The typed rows of each ndbinfo table ndbtop reads. Field names are the columns' (camelCase, `fieldName`), so
// a row is what the server sent, checked; units are the server's (see the notes, and where a unit is uncertain).

/** `cpustat` joined with `threads`: the last second of one thread. */
export interface ThreadCpuRow {
  nodeId: number;
  thrNo: number;
  /** `threads.thread_name` (main, rep, ldm, query, recv, send, tc, io, watchdog …); null without a `threads` table. */
  threadName: string | null;
  /** Percentages of the last second (0–100); the OS view (getrusage of the thread) and ndbmtd's own. */
  osUser: number;
  osSystem: number;
  osIdle: number;
  threadExec: number;
  threadSleeping: number;
  threadSpinning: number;
  threadSend: number;
  threadBufferFull: number;
  /** µs the percentages cover (about 1 s). */
  elapsedTime: number;
}

/**
 * `cpudata` (8.0.23+, Linux only): one CPU of a data node's host. The unit of the times is not documented: only
 * their shares of the CPU's total mean anything.
 */
export interface HostCpuRow {
  nodeId: number;
  cpuNo: number;
  /** 1 when the CPU is online. */
  cpuOnline: number;
  cpuUserspaceTime: number;
  cpuIdleTime: number;
  cpuSystemTime: number;
  cpuInterruptTime: number;
  cpuExecVmTime: number;
}

export interface RestartRow {
  nodeId: number;
  /** The text column: what to trust. */
  status: string;
  /** `node_restart_status_int` as the server sent it (Dbdih::NodeRecoveryStatus numbering, not the manual's). */
  statusInt: number;
  /** The enum name of `statusInt` from the server source, null beyond the known range. */
  statusName: string | null;
  /** Whole seconds per phase of the node's most recent restart, keyed by the server's column names. */
  phases: Record<string, number>;
  totalSecs: number;
}

/** `logspaces` (REDO, DD-UNDO) and `logbuffers` (also BACKUP-DATA, BACKUP-LOG): bytes. */
export interface LogRow {
  nodeId: number;
  logType: string;
  logId: number;
  logPart: number;
  total: number;
  used: number;
}

/** Per-second rates of a row's counters since the previous reading; null at the first reading and after a reset. */
export type PerSecond<K extends string> = Record<K, number | null>;

export type TransporterCounter = 'bytesSent' | 'bytesReceived' | 'overloadCount' | 'slowdownCount';

export interface TransporterRow {
  nodeId: number;
  remoteNodeId: number;
  /** CONNECTED, CONNECTING, DISCONNECTED, DISCONNECTING. */
  status: string;
  remoteAddress: string;
  /** Bytes since the data node started (they only grow until it restarts). */
  bytesSent: number;
  bytesReceived: number;
  connectCount: number;
  /** 0/1 now, and how often it became so since the node started. */
  overloaded: number;
  overloadCount: number;
  slowdown: number;
  slowdownCount: number;
  perSec: PerSecond<TransporterCounter>;
}

/** 8.3+: one row per transporter of a (multi-transporter) link, with its send buffer in bytes. */
export interface TransporterDetailRow extends TransporterRow {
  blockInstance: number;
  trpId: number;
  encrypted: number;
  sendbufferUsedBytes: number;
  sendbufferMaxUsedBytes: number;
  sendbufferAllocBytes: number;
  sendbufferMaxAllocBytes: number;
}

/** Bytes and pages ("Data memory", "Long message buffer", …). */
export interface MemoryRow {
  nodeId: number;
  memoryType: string;
  used: number;
  usedPages: number;
  total: number;
  totalPages: number;
}

/**
 * 32 KiB pages per resource: reserved, used and max as the MySQL 8.4 manual documents them. `spare` is not
 * documented there; taken to be pages too (uncertain).
 */
export interface ResourceRow {
  nodeId: number;
  resourceName: string;
  reserved: number;
  used: number;
  max: number;
  spare: number;
}

export type DiskPageBufferCounter = 'pagesWritten' | 'pagesWrittenLcp' | 'pagesRead' | 'logWaits' | 'pageRequestsDirectReturn' | 'pageRequestsWaitQueue' | 'pageRequestsWaitIo';

/** Counts since the data node started, per LGMAN/PGMAN instance. */
export interface DiskPageBufferRow extends Record<DiskPageBufferCounter, number> {
  nodeId: number;
  blockInstance: number;
  perSec: PerSecond<DiskPageBufferCounter>;
  /** direct_return ÷ (direct_return + wait_io) over the last interval; null without requests in it. */
  hitRatio: number | null;
  /** The same since the node started. */
  hitRatioSinceStart: number | null;
}

export type DiskWriteCounter = 'slowdownsDueToIoLag' | 'slowdownsDueToHighCpu' | 'diskWriteSpeedSetToMin';

/** Bytes per second (the manual's unit; the std_dev columns too), and slowdown counts since the node started. */
export interface DiskWriteSpeedRow extends Record<DiskWriteCounter, number> {
  nodeId: number;
  backupLcpSpeedLastSec: number;
  redoSpeedLastSec: number;
  backupLcpSpeedLast10sec: number;
  redoSpeedLast10sec: number;
  stdDevBackupLcpSpeedLast10sec: number;
  stdDevRedoSpeedLast10sec: number;
  backupLcpSpeedLast60sec: number;
  redoSpeedLast60sec: number;
  stdDevBackupLcpSpeedLast60sec: number;
  stdDevRedoSpeedLast60sec: number;
  currentTargetDiskWriteSpeed: number;
  perSec: PerSecond<DiskWriteCounter>;
}

/** What each reading yields; a reading is one query, run on its own interval. */
export interface ReadingRows {
  cpu: ThreadCpuRow;
  restarts: RestartRow;
  logspaces: LogRow;
  logbuffers: LogRow;
  transporters: TransporterRow;
  transporterDetails: TransporterDetailRow;
  memory: MemoryRow;
  resources: ResourceRow;
  diskPageBuffer: DiskPageBufferRow;
  diskWriteSpeed: DiskWriteSpeedRow;
  hostCpu: HostCpuRow;
}

export type ReadingKey = keyof ReadingRows;
