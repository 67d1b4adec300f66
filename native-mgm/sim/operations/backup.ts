import type { ClusterState } from '../state/cluster-state.js';
import { MGM_ERROR } from './mgm-errors.js';
import { jitter, type Prng } from '../state/prng.js';
import { makeEvent, split64, type SimEvent } from '../state/sim-event.js';

/** From `start backup` until the coordinator says BackupStarted (the nodes agreed on the id and the snapshot). */
const START_MS = 100;
/** From the last node's data being written until BackupCompleted (the log and the control files are closed). */
const FINISH_MS = 300;
/**
 * A backup writes the rows, not the pages' free space and headers: this share of the DataMemory a node uses for
 * its primary fragments. The engine does not know it: its ETA range allows for anything from 75 % to all of it.
 */
const ROW_SHARE = 0.85;
/** Changes logged while the backup runs, as a share of its data (the steady load of the scenarios). */
const LOG_SHARE = 0.004;
/** How far one node's data and disk speed may be from another's. */
const NODE_SPREAD = 0.06;

/** What sizes a backup and how fast it goes, from the model's memory and each node's configuration. */
export interface BackupSizing {
  /** Bytes of DataMemory data node `id` uses now (all its fragments, primary or not). */
  dataBytes(id: number): number;
  /** Bytes/s the node writes a backup at: its MaxDiskWriteSpeed. */
  writeSpeed(id: number): number;
  /** BackupReportFrequency in seconds: 0 (the default) sends BackupStatus only when asked (`dump events` 62). */
  reportEverySec(): number;
  rowBytes(): number;
}

export type BackupOutcome = { ok: true } | { ok: false; code: number };

export interface BackupHandle {
  id: number;
  /** Settles when BackupStarted went out (or the backup failed before). */
  started: Promise<BackupOutcome>;
  completed: Promise<BackupOutcome>;
}

/** A running backup as the model has it now (a test's ground truth), times in sim ms. */
export interface BackupProgress {
  id: number;
  coordinator: number;
  /** When BackupStarted went out. */
  startedAt: number;
  /** When BackupCompleted will go out. */
  endsAt: number;
  /** Each node's share and what it has written of it now. */
  nodes: Array<{ nodeId: number; shareBytes: number; durationMs: number; bytes: number; records: number }>;
  rowBytes: number;
}

export interface BackupOptions {
  /** Multiplies every node's write speed: below 1 the disks are busy with something else. */
  speedFactor?: number;
}

interface NodeShare {
  nodeId: number;
  bytes: number;
  /** Sim ms from BackupStarted until this node's data is written. */
  durationMs: number;
}

interface Running {
  id: number;
  coordinator: number;
  /** When the data started to be written (BackupStarted). */
  startedAt: number;
  nodes: NodeShare[];
  abort: () => void;
}

/**
 * Backups coordinated by the master (spec §4.12, §6.6.9). Every started data node writes its primary fragments'
 * rows (its DataMemory in use ÷ NoOfReplicas, the rows' share of it) at its disk write speed, so a backup takes as
 * long as the node with the most to write needs: BackupStarted from the coordinator, BackupStatus from each data
 * node (its own figures) when asked or every BackupReportFrequency seconds, then BackupCompleted from the
 * coordinator with the sums; BackupAborted on `abort backup`.
 */
export class BackupCoordinator {
  private lastId = 0;
  private readonly running = new Map<number, Running>();

  constructor(
    private readonly cluster: ClusterState,
    private readonly sizing: BackupSizing,
    private readonly prng: Prng,
  ) {}

  start(requestedId = 0, options: BackupOptions = {}): BackupHandle | { error: number } {
    const master = this.cluster.master();
    if (!master || master.status !== 'STARTED') return { error: MGM_ERROR.noContactWithDbNodes };
    const id = requestedId > 0 ? requestedId : this.lastId + 1;
    this.lastId = Math.max(this.lastId, id);
    const clock = this.cluster.clock;
    let markStarted: (o: BackupOutcome) => void = () => undefined;
    let finish: (o: BackupOutcome) => void = () => undefined;
    const started = new Promise<BackupOutcome>((resolve) => (markStarted = resolve));
    const completed = new Promise<BackupOutcome>((resolve) => (finish = resolve));
    const nodes = this.shares(options.speedFactor ?? 1);
    const run: Running = { id, coordinator: master.id, startedAt: clock.now() + START_MS, nodes, abort: () => undefined };
    this.running.set(id, run);
    const totalMs = Math.max(0, ...nodes.map((n) => n.durationMs));

    const cancels: Array<() => void> = [];
    cancels.push(
      clock.after(START_MS, () => {
        this.cluster.emit(makeEvent('BackupStarted', run.coordinator, { starting_node: run.coordinator, backup_id: id }));
        markStarted({ ok: true });
      }),
    );
    const everyMs = this.sizing.reportEverySec() * 1000;
    for (let t = START_MS + everyMs; everyMs > 0 && t < START_MS + totalMs; t += everyMs) {
      cancels.push(clock.after(t, () => this.cluster.emit(...this.reports(run))));
    }
    cancels.push(
      clock.after(START_MS + totalMs + FINISH_MS, () => {
        this.running.delete(id);
        this.cluster.emit(this.completedEvent(run));
        finish({ ok: true });
      }),
    );
    run.abort = () => {
      for (const cancel of cancels) cancel();
      this.running.delete(id);
      this.cluster.emit(makeEvent('BackupAborted', run.coordinator, { starting_node: run.coordinator, backup_id: id, error: MGM_ERROR.backupAborted }));
      markStarted({ ok: false, code: MGM_ERROR.backupAborted });
      finish({ ok: false, code: MGM_ERROR.backupAborted });
    };
    return { id, started, completed };
  }

  abort(id: number): void {
    this.running.get(id)?.abort();
  }

  /** Whether a backup runs now, for scenarios that wait for one to end. */
  get busy(): boolean {
    return this.running.size > 0;
  }

  /** Bytes/s data node `nodeId` writes for running backups at sim time `at` (0 once its share is written). */
  writeSpeed(nodeId: number, at: number): number {
    let speed = 0;
    for (const run of this.running.values()) {
      const node = run.nodes.find((n) => n.nodeId === nodeId);
      if (node && at >= run.startedAt && at < run.startedAt + node.durationMs) speed += (node.bytes * 1000) / node.durationMs;
    }
    return speed;
  }

  /** BackupStatus of every running backup, one per data node in it, for `dump events` type 62 (spec §4.10). */
  statusReports(): SimEvent[] {
    return [...this.running.values()].flatMap((r) => (this.cluster.clock.now() < r.startedAt ? [] : this.reports(r)));
  }

  /** The running backups that have begun writing, as the model has them now. */
  progress(): BackupProgress[] {
    const now = this.cluster.clock.now();
    return [...this.running.values()]
      .filter((r) => now >= r.startedAt)
      .map((r) => ({
        id: r.id,
        coordinator: r.coordinator,
        startedAt: r.startedAt,
        endsAt: r.startedAt + Math.max(0, ...r.nodes.map((n) => n.durationMs)) + FINISH_MS,
        nodes: r.nodes.map((n) => {
          const bytes = this.written(r, n);
          return { nodeId: n.nodeId, shareBytes: n.bytes, durationMs: n.durationMs, bytes, records: Math.round(bytes / this.sizing.rowBytes()) };
        }),
        rowBytes: this.sizing.rowBytes(),
      }));
  }

  private shares(speedFactor: number): NodeShare[] {
    const replicas = Math.max(1, this.cluster.replicas);
    return [...this.cluster.data.values()]
      .filter((n) => n.status === 'STARTED')
      .map((n) => {
        const bytes = Math.round(((this.sizing.dataBytes(n.id) * ROW_SHARE) / replicas) * jitter(this.prng, NODE_SPREAD));
        const speed = Math.max(1, this.sizing.writeSpeed(n.id) * speedFactor * jitter(this.prng, NODE_SPREAD));
        return { nodeId: n.id, bytes, durationMs: (bytes / speed) * 1000 };
      });
  }

  private written(run: Running, node: NodeShare): number {
    const elapsed = this.cluster.clock.now() - run.startedAt;
    const f = node.durationMs <= 0 ? 1 : Math.min(1, Math.max(0, elapsed / node.durationMs));
    return Math.round(node.bytes * f);
  }

  private reports(run: Running): SimEvent[] {
    return run.nodes.map((node) => {
      const data = this.written(run, node);
      const bytes = split64(data);
      const records = split64(Math.round(data / this.sizing.rowBytes()));
      const logBytes = split64(Math.round(data * LOG_SHARE));
      const logRecords = split64(Math.round((data * LOG_SHARE) / this.sizing.rowBytes()));
      return makeEvent('BackupStatus', node.nodeId, {
        starting_node: run.coordinator,
        backup_id: run.id,
        n_bytes_lo: bytes.lo,
        n_bytes_hi: bytes.hi,
        n_records_lo: records.lo,
        n_records_hi: records.hi,
        n_log_bytes_lo: logBytes.lo,
        n_log_bytes_hi: logBytes.hi,
        n_log_records_lo: logRecords.lo,
        n_log_records_hi: logRecords.hi,
      });
    });
  }

  private completedEvent(run: Running): SimEvent {
    const data = run.nodes.reduce((sum, n) => sum + n.bytes, 0);
    const bytes = split64(data);
    const records = split64(Math.round(data / this.sizing.rowBytes()));
    const logBytes = split64(Math.round(data * LOG_SHARE));
    const logRecords = split64(Math.round((data * LOG_SHARE) / this.sizing.rowBytes()));
    const startGci = 1000 + run.id * 37;
    return makeEvent('BackupCompleted', run.coordinator, {
      starting_node: run.coordinator,
      backup_id: run.id,
      start_gci: startGci,
      stop_gci: startGci + Math.max(1, Math.round((this.cluster.clock.now() - run.startedAt) / 100)),
      n_bytes: bytes.lo,
      n_records: records.lo,
      n_log_bytes: logBytes.lo,
      n_log_records: logRecords.lo,
      n_bytes_hi: bytes.hi,
      n_records_hi: records.hi,
      n_log_bytes_hi: logBytes.hi,
      n_log_records_hi: logRecords.hi,
    });
  }
}
