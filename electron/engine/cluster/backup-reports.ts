const ENDS = new Set(['BackupCompleted', 'BackupAborted', 'BackupFailedToStart']);

/**
 * When a backup's progress is asked for with `dump events 62` (spec §4.10: one BackupStatus per data node, only
 * while a backup runs; the nodes send none unasked unless BackupReportFrequency is set): every `everyMs` from
 * BackupStarted until its end, and once when the command link is ready, for a backup already under way (a fresh
 * listener hears no BackupStarted for it).
 */
export class BackupReports {
  private timer: NodeJS.Timeout | null = null;
  private asking = false;

  constructor(
    /** Asks once; resolves whether any data node reported a running backup. */
    private readonly ask: () => Promise<boolean>,
    private readonly everyMs: number,
  ) {}

  /** The link is ready: is a backup under way? */
  check(): void {
    void this.run();
  }

  event(name: string): void {
    if (name === 'BackupStarted') this.start();
    else if (ENDS.has(name)) this.stop();
  }

  close(): void {
    this.stop();
  }

  private start(): void {
    this.timer ??= setInterval(() => void this.run(), this.everyMs);
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async run(): Promise<void> {
    // A stalling server: never two questions in flight.
    if (this.asking) return;
    this.asking = true;
    try {
      // No node reports one: it ended while an end event was missed, or none runs.
      if (await this.ask()) this.start();
      else this.stop();
    } catch {
      // The caller noted the error; the timer asks again.
    } finally {
      this.asking = false;
    }
  }
}
