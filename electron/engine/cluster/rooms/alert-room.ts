import type { AlertCount } from '../../../contract/counters.js';
import type { Alert, AlertKind, EventView } from '../../../contract/events.js';
import { AlertBook } from '../../alerts/alert-book.js';
import { markRaisingEvent } from '../../alerts/event-severity.js';
import { AlertTally } from '../../counters/alert-tally.js';
import type { TrackerInput } from '../tracker-input.js';
import type { Room } from './room.js';
import type { ViewChanges } from './view-changes.js';

/**
 * The cluster's alerts: the rooms that judge a subject (node down, node groups, memory, the connection …) raise and
 * resolve here, and whatever follows every alert raised (the push, the run's alert list) subscribes with
 * `onRaised`. An alert raised while a logged event is applied gives that event its severity and id.
 */
export class AlertRoom implements Room {
  private readonly book: AlertBook;
  private readonly tally = new AlertTally();
  private readonly listeners: Array<(alert: Alert) => void> = [];
  private readonly resolvedListeners: Array<(alert: Alert) => void> = [];
  private raisingEvent: EventView | null = null;

  constructor(changes: ViewChanges) {
    this.book = new AlertBook((a) => {
      changes.urgent();
      if (this.raisingEvent) markRaisingEvent(this.raisingEvent, a);
      this.tally.count(a);
      for (const listener of this.listeners) listener(a);
    }, (a) => {
      for (const listener of this.resolvedListeners) listener(a);
    });
  }

  input(input: TrackerInput): void {
    if (input.kind === 'ack') this.book.acknowledge(input.alertId);
  }

  onRaised(listener: (alert: Alert) => void): void {
    this.listeners.push(listener);
  }

  /** Every alert whose condition is over, when it is. */
  onResolved(listener: (alert: Alert) => void): void {
    this.resolvedListeners.push(listener);
  }

  /** Runs `apply` with `view` as the logged event any alert it raises is marked on. */
  raisingFrom(view: EventView | null, apply: () => void): void {
    this.raisingEvent = view;
    try {
      apply();
    } finally {
      this.raisingEvent = null;
    }
  }

  raise(key: string, kind: AlertKind, severity: Alert['severity'], at: number, nodeId: number | null, message: string): void {
    this.book.raise(key, kind, severity, at, nodeId, message);
  }

  occurred(kind: AlertKind, severity: Alert['severity'], at: number, nodeId: number | null, message: string): void {
    this.book.occurred(kind, severity, at, nodeId, message);
  }

  revise(key: string, message: string): void {
    this.book.revise(key, message);
  }

  resolve(key: string, at: number): void {
    this.book.resolve(key, at);
  }

  visible(): Alert[] {
    return this.book.visible();
  }

  /** Alerts raised per kind and severity, for exporters. */
  counts(): AlertCount[] {
    return this.tally.view();
  }
}
