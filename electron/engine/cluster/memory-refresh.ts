/** A crossing's round waits this long, so the crossings of one CMVMI check (once a second) share it. */
const AFTER_CROSSING_MS = 200;
/** CMVMI checks memory once a second (spec §7.1): rounds closer together than that say nothing new. */
const MIN_GAP_MS = 1000;

/**
 * When memory is asked for with `dump events 50` (spec §4.10, §7.3: a slow timer plus the threshold events): every
 * `periodMs`, and soon after a threshold event. A crossing says memory is moving, and the nodes that fill together
 * (NDB spreads rows evenly) cross over a few seconds: a round then gives every node's use of one moment, for the
 * tiles (which otherwise lag a moving cluster by up to a period) and for judging whether the crossing is the
 * cluster's (`rooms/alerts/memory-alerts.ts`).
 */
export class MemoryRefresh {
  private timer: NodeJS.Timeout | null = null;
  private soonTimer: NodeJS.Timeout | null = null;
  private lastAt = 0;

  constructor(
    private readonly refresh: () => Promise<void>,
    private readonly periodMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.run(), this.periodMs);
  }

  /** A node crossed a threshold: one round soon, shared by the crossings around it. */
  soon(): void {
    if (this.soonTimer || !this.timer) return;
    const wait = Math.max(AFTER_CROSSING_MS, MIN_GAP_MS - (Date.now() - this.lastAt));
    this.soonTimer = setTimeout(() => {
      this.soonTimer = null;
      void this.run();
    }, wait);
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.soonTimer) clearTimeout(this.soonTimer);
    this.timer = null;
    this.soonTimer = null;
  }

  private run(): Promise<void> {
    this.lastAt = Date.now();
    return this.refresh();
  }
}
