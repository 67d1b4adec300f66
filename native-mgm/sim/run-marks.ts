/**
 * How a scenario's driver marks its runs, like a benchmark script would: the simulator knows nothing about
 * ndbtop, so whoever starts it attaches a marker (ndbtop's own is an HTTP client of `POST /api/runs`).
 */
export interface RunMarker {
  start(name: string, tags: Record<string, string>, phase?: string): Promise<void>;
  phase(name: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The simulator's slot for a marker. Scenario drivers call it whether or not one is attached; with
 * `waitForMarker` they wait (in sim time) for one before each run, so a test attaching it a moment after the
 * simulator starts, or between two recordings, loses no mark. A marker's failure never stops the load: it is
 * kept in `lastError` (a benchmark keeps running when its dashboard goes away).
 */
export class RunMarks {
  private marker: RunMarker | null = null;
  lastError: string | null = null;

  constructor(readonly waitForMarker = false) {}

  attach(marker: RunMarker | null): void {
    this.marker = marker;
  }

  get attached(): boolean {
    return this.marker !== null;
  }

  start(name: string, tags: Record<string, string>, phase?: string): Promise<void> {
    return this.call((m) => m.start(name, tags, phase));
  }

  phase(name: string): Promise<void> {
    return this.call((m) => m.phase(name));
  }

  stop(): Promise<void> {
    return this.call((m) => m.stop());
  }

  private async call(fn: (m: RunMarker) => Promise<void>): Promise<void> {
    if (!this.marker) return;
    try {
      await fn(this.marker);
      this.lastError = null;
    } catch (err) {
      this.lastError = err instanceof Error ? err.message : String(err);
    }
  }
}
