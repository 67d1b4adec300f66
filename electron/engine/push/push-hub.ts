import type { PushMessage } from '../../contract/channels.js';
import type { Alert, EventView } from '../../contract/events.js';
import type { HistoryPoint } from '../../contract/history.js';
import type { ClusterSnapshot, ClusterSummary } from '../../contract/snapshot.js';
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

/**
 * Coalesces cluster changes into at most one push per `minIntervalMs` on average, leading-edge: the first change
 * after a quiet spell goes out in the same turn of the event loop; changes during a burst wait for the next slot
 * and go out together as one delta per cluster.
 *
 * Two lanes share that budget, each at most one push per 2 × `minIntervalMs`: routine changes (rates, memory),
 * which under load never stop, and urgent ones (a node changed status or phase, an alert). Sharing one lane, a
 * node going down would wait behind the rates for up to a slot; with its own, it goes out at once unless another
 * urgent push just left. Every push carries everything that changed, whichever lane sent it.
 */
export class PushHub {
  private readonly listeners = new Set<Listener>();
  private readonly sources = new Map<string, Source>();
  private readonly lastLaneFlush = { routine: -Infinity, urgent: -Infinity };
  private timer: NodeJS.Timeout | null = null;
  private timerDue = Infinity;
  private queued = false;

  constructor(private readonly minIntervalMs = 100) {}

  addCluster(clusterId: string, snapshot: () => ClusterSnapshot): void {
    this.sources.set(clusterId, { snapshot, version: 0, last: null, dirty: true, events: [], alerts: [] });
    this.request();
  }

  removeCluster(clusterId: string): void {
    this.sources.delete(clusterId);
  }

  /**
   * urgent: a node went down, moved a start phase, or an alert was raised. That goes out in this turn even
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
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerDue = Infinity;
    for (const [clusterId, s] of this.sources) {
      if (s.dirty) this.flushSnapshot(s);
      if (s.events.length > 0) this.send({ type: 'events', clusterId, events: s.events.splice(0) });
      for (const alert of s.alerts.splice(0)) this.send({ type: 'alert', clusterId, alert });
    }
  }

  close(): void {
    this.flush();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
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
    // A flush is already coming this turn, and it takes everything.
    if (this.queued) return;
    const lane = urgent ? 'urgent' : 'routine';
    const now = performance.now();
    const due = this.lastLaneFlush[lane] + 2 * this.minIntervalMs;
    if (due <= now) {
      // Same turn of the event loop: whatever else this turn changes rides along.
      this.queued = true;
      queueMicrotask(() => {
        this.queued = false;
        this.flushLane(lane);
      });
      return;
    }
    if (this.timer && this.timerDue <= due) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => this.flushLane(lane), due - now);
  }

  private flushLane(lane: 'routine' | 'urgent'): void {
    this.lastLaneFlush[lane] = performance.now();
    this.flush();
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
