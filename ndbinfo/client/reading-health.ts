import { NdbinfoError } from './errors.js';
import type { ReadingKey } from './rows.js';

/**
 * Which readings of the current session fail, so the source's state says so: a connection that is up while its
 * readings fail (bad rows, a table gone, answers cut off or crawling in) is "failing" with the last error, not "up".
 * A reading fails when its query fails, or while it has had no complete answer for two of its intervals; the state
 * is "up" again once every reading that failed has answered.
 */
export class ReadingHealth {
  private readonly failing = new Map<ReadingKey, NdbinfoError>();
  private shown: string | null = null;

  /** `change` hears the error to show (the latest), or null when none is left. */
  constructor(private readonly change: (error: NdbinfoError | null) => void) {}

  failed(key: ReadingKey, error: NdbinfoError): void {
    this.failing.set(key, error);
    if (this.shown === error.message) return;
    this.shown = error.message;
    this.change(error);
  }

  answered(key: ReadingKey): void {
    if (!this.failing.delete(key) || this.failing.size > 0) return;
    this.shown = null;
    this.change(null);
  }

  /** Watches one query of `key`: unanswered after `ms`, the reading counts as failing; returns how to stop watching. */
  watch(key: ReadingKey, ms: number, what: string, where: string): () => void {
    const timer = setTimeout(() => this.failed(key, new NdbinfoError('TIMEOUT', `${where}: ${what} has not answered for ${ms} ms`)), ms);
    timer.unref();
    return () => clearTimeout(timer);
  }

  /** A new session: nothing of the last one's failures holds. */
  reset(): void {
    this.failing.clear();
    this.shown = null;
  }
}
