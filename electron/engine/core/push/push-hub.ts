import type { PushMessage } from '../../../contract/schemas/channels.js';
import type { Alert, EventView } from '../../../contract/schemas/events.js';
import type { HistoryPoint } from '../../../contract/schemas/history.js';
import type { ClusterSnapshot, ClusterSummary } from '../../../contract/schemas/snapshot.js';
import { diffSnapshots } from './snapshot-delta.js';

type Listener = (message: PushMessage) => void;

interface Source {
  snapshot: () => ClusterSnapshot;
  version: number;
  last: ClusterSnapshot | null;
  dirty: boolean;
  events: EventView[];
  alerts: Alert[];
}

/** What the hub reads time from and schedules with; tests give it a fake one. */
export interface HubClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: HubClock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

type Lane = 'routine' | 'urgent';

/** Urgent pushes that may leave back to back before the urgent lane falls back to one per slot. */
export const URGENT_BURST = 3;

/**
 * Coalesces cluster changes into about one push per `minIntervalMs`, leading-edge: the first change after a quiet
 * spell goes out in the same turn of the event loop; changes during a burst wait for the next slot and go out
 * together as one delta per cluster.
 *
 * Two lanes share that budget, each refilled at one push per 2 × `minIntervalMs`: routine changes (rates,
 * memory), which under load never stop, and urgent ones (a node changed status or phase, an alert, a link).
 * The routine lane sends at most one push per slot, at the end of the turn that made the change. The urgent lane
 * is a token bucket of URGENT_BURST pushes, so an urgent change that comes alone (a node failing a moment after
 * another came back) goes out at once, inside the call that made it, whatever either lane just sent; only a burst
 * of them is held to the slot rate. Every push carries everything that changed, whichever lane sent it.
 */
export class PushHub {
  private readonly listeners = new Set<Listener>();
  private readonly sources = new Map<string, Source>();
  private lastRoutine = -Infinity;
  /** Urgent pushes available now, refilled by one per slot up to URGENT_BURST; as of `urgentAt`. */
  private urgentTokens = URGENT_BURST;
  private urgentAt = 0;
  private readonly timers: Record<Lane, { handle: unknown; due: number } | null> = { routine: null, urgent: null };
  private queued = false;

  constructor(
    private readonly minIntervalMs = 100,
    private readonly clock: HubClock = realClock,
  ) {}

  addCluster(clusterId: string, snapshot: () => ClusterSnapshot): void {
    this.sources.set(clusterId, { snapshot, version: 0, last: null, dirty: true, events: [], alerts: [] });
    this.request();
  }

  removeCluster(clusterId: string): void {
    this.sources.delete(clusterId);
  }

  /**
   * urgent: a data node went down or came up, an alert was raised, a link changed. That goes out at once even
   * during a burst (under load the rates change all the time, so the hub is rarely quiet), while routine
   * changes keep to the slot rate.
   */
  changed(clusterId: string, urgent = false): void {
    const s = this.sources.get(clusterId);
    if (!s) return;
    s.dirty = true;
    this.request(urgent);
  }

  events(clusterId: string, views: EventView[]): void {
    this.sources.get(clusterId)?.events.push(...views);
  }

  alert(clusterId: string, alert: Alert): void {
    this.sources.get(clusterId)?.alerts.push(alert);
  }

  /** History points go out as they are taken, once a second: no coalescing needed. */
  history(clusterId: string, point: HistoryPoint): void {
    this.send({ type: 'history', clusterId, points: [point] });
  }

  clusters(list: ClusterSummary[]): void {
    this.send({ type: 'clusters', clusters: list });
  }

  /** A new subscriber gets every cluster's full snapshot first, at the version the next delta builds on. */
  subscribe(listener: Listener): () => void {
    this.flush();
    for (const [, s] of this.sources) {
      if (s.last) listener({ type: 'snapshot', version: s.version, snapshot: s.last });
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sends whatever is pending now (before a close, or before a new subscriber's snapshot). */
  flush(): void {
    this.cancelTimers();
    for (const [clusterId, s] of this.sources) {
      if (s.dirty) this.flushSnapshot(s);
      if (s.events.length > 0) this.send({ type: 'events', clusterId, events: s.events.splice(0) });
      for (const alert of s.alerts.splice(0)) this.send({ type: 'alert', clusterId, alert });
    }
  }

  close(): void {
    this.flush();
    this.listeners.clear();
  }

  private flushSnapshot(s: Source): void {
    s.dirty = false;
    const next = s.snapshot();
    if (!s.last) {
      s.version += 1;
      s.last = next;
      this.send({ type: 'snapshot', version: s.version, snapshot: next });
      return;
    }
    const delta = diffSnapshots(s.last, next, s.version);
    if (!delta) return;
    s.version = delta.version;
    s.last = next;
    this.send({ type: 'delta', delta });
  }

  private request(urgent = false): void {
    const now = this.clock.now();
    if (urgent && this.urgentDue(now) <= now) {
      // Now, inside the call that made the change: the rest of this turn (the other events of the same read, a
      // few hundred statistics reports under load) must not hold up a node going down. What it changes follows
      // in the next push.
      this.flushLane('urgent');
      return;
    }
    // A flush is already coming this turn, and it takes everything.
    if (this.queued) return;
    const lane: Lane = urgent ? 'urgent' : 'routine';
    const due = lane === 'urgent' ? this.urgentDue(now) : this.lastRoutine + this.slotMs;
    if (due <= now) {
      // Same turn of the event loop: whatever else this turn changes rides along.
      this.queued = true;
      queueMicrotask(() => {
        this.queued = false;
        this.flushLane(lane);
      });
      return;
    }
    const timer = this.timers[lane];
    if (timer && timer.due <= due) return;
    if (timer) this.clock.clearTimeout(timer.handle);
    this.timers[lane] = { handle: this.clock.setTimeout(() => this.flushLane(lane), due - now), due };
  }

  private get slotMs(): number {
    return 2 * this.minIntervalMs;
  }

  /** Brings the urgent bucket up to `now`; returns when it next holds a token (now, if it does). */
  private urgentDue(now: number): number {
    const refilled = Math.floor((now - this.urgentAt) / this.slotMs);
    if (refilled > 0) {
      this.urgentTokens = Math.min(URGENT_BURST, this.urgentTokens + refilled);
      this.urgentAt = this.urgentTokens === URGENT_BURST ? now : this.urgentAt + refilled * this.slotMs;
    }
    return this.urgentTokens > 0 ? now : this.urgentAt + this.slotMs;
  }

  private flushLane(lane: Lane): void {
    const now = this.clock.now();
    if (lane === 'routine') this.lastRoutine = now;
    else if (this.urgentDue(now) <= now) {
      // A full bucket starts refilling from the push that drew on it.
      if (this.urgentTokens === URGENT_BURST) this.urgentAt = now;
      this.urgentTokens -= 1;
    }
    this.flush();
  }

  private cancelTimers(): void {
    for (const lane of ['routine', 'urgent'] as const) {
      const timer = this.timers[lane];
      if (timer) this.clock.clearTimeout(timer.handle);
      this.timers[lane] = null;
    }
  }

  private send(message: PushMessage): void {
    for (const l of this.listeners) {
      try {
        l(message);
      } catch {
        // One broken subscriber (a closed window, a dead socket) must not starve the others.
      }
    }
  }
}
