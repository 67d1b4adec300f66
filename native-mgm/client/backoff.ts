/**
 * Capped exponential backoff with full jitter: delay n is uniform in [0, min(cap, base · 2^n)).
 *
 * Full jitter because several ndbtop windows (and the CLI) often watch the same cluster: when its management
 * server restarts they all lose it at the same instant, and equal delays would bring them back in lockstep.
 *
 * Base 250 ms: a management server that drops us while another one in the list is up, or that restarts quickly,
 * should be back on screen within a blink, so the first retries are short. Cap 10 s: an ndb_mgmd restart takes
 * seconds to tens of seconds, and a monitor must notice its return soon after, so we never wait longer than that;
 * it is also well under mgmapi's own command timeout (60 s), so a retry loop never looks slower than a stuck call.
 */
export interface BackoffOptions {
  baseMs?: number;
  capMs?: number;
  /** Uniform in [0, 1); injectable so tests can pin the jitter. */
  random?: () => number;
}

export const DEFAULT_BACKOFF_BASE_MS = 250;
export const DEFAULT_BACKOFF_CAP_MS = 10_000;

export class Backoff {
  readonly baseMs: number;
  readonly capMs: number;
  private readonly random: () => number;
  private attempt = 0;

  constructor(options: BackoffOptions = {}) {
    const { baseMs = DEFAULT_BACKOFF_BASE_MS, capMs = DEFAULT_BACKOFF_CAP_MS, random = Math.random } = options;
    if (!(baseMs > 0) || !Number.isFinite(baseMs)) throw new RangeError(`backoff base must be a positive number, got ${baseMs}`);
    if (!(capMs >= baseMs) || !Number.isFinite(capMs)) throw new RangeError(`backoff cap must be at least the base (${baseMs}), got ${capMs}`);
    this.baseMs = baseMs;
    this.capMs = capMs;
    this.random = random;
  }

  /** The next delay in whole milliseconds; each call doubles the ceiling until it reaches the cap. */
  next(): number {
    const r = this.random();
    if (!(r >= 0 && r < 1)) throw new RangeError(`backoff random source must return a number in [0, 1), got ${r}`);
    const ceiling = Math.min(this.capMs, this.baseMs * 2 ** this.attempt);
    // Stop counting once capped so 2 ** attempt can never overflow to Infinity on a connection down for days.
    if (ceiling < this.capMs) this.attempt += 1;
    return Math.floor(r * ceiling);
  }

  /** Back to the shortest delays, after a connection succeeded. */
  reset(): void {
    this.attempt = 0;
  }
}
