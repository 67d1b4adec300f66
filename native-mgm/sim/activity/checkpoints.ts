import type { ClusterState } from '../state/cluster-state.js';
import type { DataNode } from '../state/node-state.js';
import { makeEvent } from '../state/sim-event.js';

/** TimeBetweenGlobalCheckpoints' default (ms, config/params.ts key 121). */
const GCP_INTERVAL_MS = 2000;
/** How long the master's GCP_SAVE round takes while nothing holds it (writes are tiny in the model). */
const GCP_SAVE_MS = 50;
/** How often the master looks again whether the nodes that hold an open GCP have flushed its redo. */
const CHECK_MS = 250;

/** What a scenario lets hold a GCP open (nodes whose redo for it is not yet on disk), and what ends a hold too long. */
export interface GcpHolds {
  holders(): DataNode[];
  /** TimeBetweenGlobalCheckpointsTimeout: how long a GCP may lag before the master stops its holders. */
  timeoutMs: number;
  /** The GCP stop: the master kills the nodes that hold the checkpoint; it then completes without them. */
  stop(holders: DataNode[]): void;
}

/**
 * Global checkpoints: every TimeBetweenGlobalCheckpoints the master's DIH starts one (GlobalCheckpointStarted) and
 * reports it completed (GlobalCheckpointCompleted), each with its `gci` (spec §6.6.2; thresholds 9 and 10, so only a
 * listener at CHECKPOINT 10 gets both). The reference does not say which node sends them: here the master, as DIH's
 * master runs the round. `stall()` holds the next one open (a disk that does not answer), `release()` completes it.
 */
export class GlobalCheckpoints {
  gci = 1000;
  private stalled = false;
  private open: number | null = null;
  private holds: GcpHolds | null = null;

  constructor(
    private readonly cluster: ClusterState,
    private readonly intervalMs: () => number = () => GCP_INTERVAL_MS,
  ) {
    this.cluster.clock.after(this.intervalMs(), () => this.round());
  }

  get isStalled(): boolean {
    return this.stalled;
  }

  /** Tests and scenarios: the GCP under way (or the next one) does not complete until `release()`. */
  stall(): void {
    this.stalled = true;
  }

  /** Scenarios: from now on an open GCP completes only once no node holds it (`gcp-stop`). */
  holdWhile(holds: GcpHolds): void {
    this.holds = holds;
  }

  release(): void {
    this.stalled = false;
    if (this.open !== null) this.complete(this.open);
  }

  private round(): void {
    const master = this.cluster.master();
    if (master && master.status === 'STARTED' && this.open === null) {
      this.gci += 1;
      const gci = this.gci;
      this.open = gci;
      this.cluster.emit(makeEvent('GlobalCheckpointStarted', master.id, { gci }));
      const startedAt = this.cluster.clock.now();
      this.cluster.clock.after(GCP_SAVE_MS, () => this.settle(gci, startedAt));
    }
    this.cluster.clock.after(this.intervalMs(), () => this.round());
  }

  private settle(gci: number, startedAt: number): void {
    if (this.stalled || this.open !== gci) return;
    const holders = this.holds?.holders() ?? [];
    if (holders.length === 0 || !this.holds) {
      this.complete(gci);
    } else if (this.cluster.clock.now() - startedAt >= this.holds.timeoutMs) {
      this.holds.stop(holders);
      this.complete(gci);
    } else {
      this.cluster.clock.after(CHECK_MS, () => this.settle(gci, startedAt));
    }
  }

  private complete(gci: number): void {
    if (this.open !== gci) return;
    this.open = null;
    const master = this.cluster.master();
    if (master) this.cluster.emit(makeEvent('GlobalCheckpointCompleted', master.id, { gci }));
  }
}
