import type { ConnectionView } from '../../../contract/schemas/snapshot.js';
import type { EngineHost } from '../../core/engine-host.js';
import { PushWatcher, waitFor } from '../helpers.js';

export interface Seen {
  at: number;
  status: ConnectionView['status'];
  events: ConnectionView['eventStream']['status'];
  lastError: string | null;
  mgmdNodeId: number | null;
}

const healthy = (s: Seen): boolean => (s.status === 'live' || s.status === 'failed-over') && s.events === 'live';

/** What a UI sees of the connection, with the time each change reached it. */
export class ConnectionProbe {
  readonly watch: PushWatcher;
  readonly seen: Seen[] = [];
  private readonly off: () => void;

  constructor(host: EngineHost) {
    this.watch = new PushWatcher(host);
    this.off = host.subscribe(() => {
      const c = this.watch.current?.connection;
      if (!c) return;
      const now: Seen = { at: Date.now(), status: c.status, events: c.eventStream.status, lastError: c.lastError, mgmdNodeId: c.mgmd?.nodeId ?? null };
      const last = this.seen.at(-1);
      if (!last || last.status !== now.status || last.events !== now.events || last.lastError !== now.lastError || last.mgmdNodeId !== now.mgmdNodeId) this.seen.push(now);
    });
  }

  get current(): Seen | undefined {
    return this.seen.at(-1);
  }

  /** The first change after `since` that matches. */
  first(since: number, match: (s: Seen) => boolean): Seen | undefined {
    return this.seen.find((s) => s.at >= since && match(s));
  }

  /** Waits for the first state after `since` in which some link is no longer live (or moved to another mgmd). */
  detected(since: number, timeoutMs: number, match: (s: Seen) => boolean = (s) => !healthy(s) || s.status === 'failed-over'): Promise<Seen> {
    return waitFor('the connection state to show the fault', () => this.first(since, match), timeoutMs);
  }

  /** Waits until both links are live again, and returns the first state of that healthy stretch if it began after `since`. */
  recovered(since: number, timeoutMs: number, match: (s: Seen) => boolean = healthy): Promise<Seen> {
    return waitFor(
      'both links live again',
      () => {
        const cur = this.current;
        if (!cur || !match(cur)) return undefined;
        const start = this.seen[this.seen.findLastIndex((s) => !match(s)) + 1];
        return start && start.at >= since ? start : undefined;
      },
      timeoutMs,
    );
  }

  close(): void {
    this.off();
    this.watch.unsubscribe();
  }
}
