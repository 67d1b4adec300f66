/**
 * Runs a task every `intervalMs`, and at once when triggered. Never two at a time: a trigger during a run
 * asks for one more run right after it, so a burst of events costs at most one extra `get status`.
 */
export class PollLoop {
  private running = false;
  private again = false;
  private closed = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly task: () => Promise<void>,
    private intervalMs: number,
  ) {}

  start(): void {
    void this.run();
  }

  trigger(): void {
    if (this.closed) return;
    if (this.running) this.again = true;
    else void this.run();
  }

  setInterval(ms: number): void {
    this.intervalMs = ms;
    if (!this.running) this.schedule();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async run(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = true;
    try {
      await this.task();
    } finally {
      this.running = false;
      if (this.again && !this.closed) {
        this.again = false;
        void this.run();
      } else this.schedule();
    }
  }

  private schedule(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), this.intervalMs);
  }
}
