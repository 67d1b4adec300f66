import type { ClusterState } from '../state/cluster-state.js';
import { makeEvent } from '../state/sim-event.js';

/** TimeBetweenGlobalCheckpoints' default (ms, config/params.ts key 121). */
const GCP_INTERVAL_MS = 2000;
/** How long the master's GCP_SAVE round takes while nothing holds it (writes are tiny in the model). */
const GCP_SAVE_MS = 50;

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
      this.cluster.clock.after(GCP_SAVE_MS, () => {
        if (!this.stalled) this.complete(gci);
      });
    }
    this.cluster.clock.after(this.intervalMs(), () => this.round());
  }

  private complete(gci: number): void {
    if (this.open !== gci) return;
    this.open = null;
    const master = this.cluster.master();
    if (master) this.cluster.emit(makeEvent('GlobalCheckpointCompleted', master.id, { gci }));
  }
}
