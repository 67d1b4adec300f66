import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long the SQL node's work runs before it lets the event loop turn. */
export const SLICE_MS = 4;
/** Rows between looks at the clock: reading it per row would cost more than the rows. */
const ROWS_PER_LOOK = 32;

/**
 * The simulator's SQL node runs in the process that hosts it: the engine's, in the desktop app's embedded default.
 * A statement's work (filling tables, stepping the result, writing rows) is cut into slices of SLICE_MS, between
 * which the event loop turns, so a large answer (144 data nodes' transporters: ~21,000 rows) delays the engine's
 * timers and sockets by a slice, not by the whole statement.
 */
export class TimeSlice {
  private started = performance.now();
  private rows = 0;

  /** `beforeTurn`: what must happen before the loop turns (a writer flushes what it wrote). */
  constructor(private readonly beforeTurn?: () => void) {}

  /** Counts a row; once the slice is spent, waits for the event loop to turn. */
  async row(): Promise<void> {
    if (++this.rows % ROWS_PER_LOOK === 0) await this.check();
  }

  /** Waits for the event loop to turn if the slice is spent. */
  async check(): Promise<void> {
    if (performance.now() - this.started < SLICE_MS) return;
    this.beforeTurn?.();
    await nextTurn();
    this.started = performance.now();
  }
}
