/**
 * Simulated time: `speed` sim milliseconds pass per real millisecond. Every timer goes through here so that
 * `dispose()` can clear all of them and a test process exits.
 */
export class SimClock {
  private readonly startReal = performance.now();
  private readonly timers = new Set<NodeJS.Timeout>();
  private disposed = false;

  constructor(readonly speed: number) {
    if (!(speed > 0) || !Number.isFinite(speed)) throw new Error(`speed must be a positive number, got ${speed}`);
  }

  /** Sim milliseconds since the simulator started. */
  now(): number {
    return (performance.now() - this.startReal) * this.speed;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Runs `fn` once `simMs` of sim time have passed. */
  after(simMs: number, fn: () => void): () => void {
    return this.afterReal(Math.max(0, simMs) / this.speed, fn);
  }

  /** Runs `fn` when the sim clock reaches `simTime`. */
  at(simTime: number, fn: () => void): () => void {
    return this.after(simTime - this.now(), fn);
  }

  /** Real-time timers for the server's own loops (PING), which do not speed up with the sim. */
  afterReal(realMs: number, fn: () => void): () => void {
    if (this.disposed) return () => undefined;
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, realMs);
    this.timers.add(t);
    return () => {
      clearTimeout(t);
      this.timers.delete(t);
    };
  }

  /** Resolves after `simMs`; never settles once the clock is disposed (nothing then waits on it). */
  sleep(simMs: number): Promise<void> {
    return new Promise((resolve) => {
      this.after(simMs, resolve);
    });
  }

  dispose(): void {
    this.disposed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
