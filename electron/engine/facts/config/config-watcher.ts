import type { ClusterConfig } from '../../../../native-mgm/index.js';

export interface ConfigWatcherOptions {
  /** Reads the configuration; `config` null when its packed form (`body`) is `knownBody`, the last one read. */
  fetch: (knownBody: string | null) => Promise<{ body: string; config: ClusterConfig | null }>;
  /** A configuration different from the last one passed on (the first read included). */
  changed: (config: ClusterConfig) => void;
  error: (err: unknown) => void;
  periodMs: number;
}

/**
 * Reads the configuration when asked (connected, a management server back) and every `periodMs`, and passes it
 * on only when it differs from the last one: a recording gets one line per generation, not one per check.
 */
export class ConfigWatcher {
  private last = '';
  private lastBody: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private closed = false;

  constructor(private readonly options: ConfigWatcherOptions) {}

  start(): void {
    // The first read may finish after close(): an interval started then would keep the process alive for ever.
    if (this.closed) return;
    this.timer ??= setInterval(() => void this.check(), this.options.periodMs);
  }

  async check(): Promise<void> {
    if (this.running || this.closed) return;
    this.running = true;
    try {
      // A 255-node configuration takes ~50 ms to decode and compare: unchanged bytes are not decoded again.
      const { body, config } = await this.options.fetch(this.lastBody);
      if (this.closed || config === null) return;
      this.lastBody = body;
      // Other bytes can still carry the same configuration (another management server's encoding of it).
      const key = JSON.stringify(config);
      if (key === this.last) return;
      this.last = key;
      this.options.changed(config);
    } catch (err) {
      if (!this.closed) this.options.error(err);
    } finally {
      this.running = false;
    }
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
  }
}
