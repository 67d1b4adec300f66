import type { AlertCount } from '../../../../contract/schemas/counters.js';
import type { Alert, AlertKind, EventView } from '../../../../contract/schemas/events.js';
import type { AlertHistory, MaintenanceEvent } from '../../../../contract/schemas/maintenance.js';
import { AlertBook } from '../../../features/alerts/alert-book.js';
import { AlertHistoryBook } from '../../../features/alerts/alert-history.js';
import { markRaisingEvent } from '../../../features/alerts/event-severity.js';
import { RunRecurrences, type RunScope } from '../../../features/alerts/run-recurrences.js';
import { AlertTally } from '../../../facts/counters/alert-tally.js';
import type { TrackerInput } from '../../tracker-input.js';
import type { Room } from '../room.js';
import type { ViewChanges } from '../view-changes.js';

interface Silenced {
  id: string;
  kind: AlertKind;
  severity: Alert['severity'];
  nodeId: number | null;
  message: string;
  clusterWide: Alert['clusterWide'];
  level: Alert['level'];
}

/**
 * The cluster's alerts: the rooms that judge a subject (node down, node groups, memory, the connection …) raise and
 * resolve here, and whatever follows every alert raised (the push, the run's alert list) subscribes with
 * `onRaised`. An alert raised while a logged event is applied gives that event its severity and id. An alert an open
 * maintenance window silences (its kind, and critical only if the window says so) goes only to the history (marked
 * with the window); a condition still on when the window closes is raised then. The history keeps every alert with
 * its raise and clear times, and what happened to every window. During a run, a
 * condition that clears and comes back reopens its alert of that run (`RunRecurrences`) instead of raising another.
 */
export class AlertRoom implements Room {
  private readonly book: AlertBook;
  private readonly tally = new AlertTally();
  private readonly history = new AlertHistoryBook();
  private readonly listeners: Array<(alert: Alert) => void> = [];
  private readonly silenced = new Map<string, Silenced>();
  private readonly resolvedListeners: Array<(alert: Alert) => void> = [];
  private readonly revisedListeners: Array<(alert: Alert) => void> = [];
  private readonly recurrences = new RunRecurrences();
  private raisingEvent: EventView | null = null;
  private nextSilenced = 1;

  constructor(
    private readonly changes: ViewChanges,
    /** The open maintenance window that silences an alert of this kind and severity, if any. */
    private readonly silencing: (kind: AlertKind, severity: Alert['severity']) => string | null = () => null,
    /** The run running now and its phase, if any. */
    private readonly runScope: () => RunScope | null = () => null,
  ) {
    this.book = new AlertBook(
      (a) => {
        this.tally.count(a);
        this.history.raised(a, null);
        this.announce(a);
      },
      (a) => {
        this.changes.other();
        this.history.cleared(a.id, a.resolvedAt ?? a.at);
        for (const listener of this.resolvedListeners) listener(a);
      },
    );
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

  /** Every active alert whose words changed (a level's figure now, a cluster-wide alert's nodes). */
  onRevised(listener: (alert: Alert) => void): void {
    this.revisedListeners.push(listener);
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

  /** `incidentId`: the incident the alert is about (a node's fall), linked from it. */
  raise(key: string, kind: AlertKind, severity: Alert['severity'], at: number, nodeId: number | null, message: string, clusterWide?: Alert['clusterWide'], level?: Alert['level'], incidentId?: string): void {
    if (this.silenced.has(key) || this.book.isActive(key)) return;
    const window = this.silencing(kind, severity);
    if (window === null) return this.raiseOrReopen(key, kind, severity, at, nodeId, message, clusterWide, level, incidentId);
    const id = `s${this.nextSilenced++}`;
    this.silenced.set(key, { id, kind, severity, nodeId, message, clusterWide, level });
    this.history.raised({ id, kind, severity, nodeId, message, at }, window);
  }

  /** Raised anew, or, when `key` was already on and over during the running run, that alert reopened. */
  private raiseOrReopen(key: string, kind: AlertKind, severity: Alert['severity'], at: number, nodeId: number | null, message: string, clusterWide?: Alert['clusterWide'], level?: Alert['level'], incidentId?: string): void {
    const run = this.runScope();
    const back = this.recurrences.returning(key, run);
    const alert = back && this.book.reopen(key, back.alertId, message + back.suffix, clusterWide, level, incidentId);
    if (alert) {
      this.history.reopen(alert.id, at, alert.message);
      return this.announce(alert);
    }
    if (back) this.recurrences.forget(key);
    const id = this.book.raise(key, kind, severity, at, nodeId, message, clusterWide, level, incidentId);
    if (id !== null) this.recurrences.raised(key, id, run);
  }

  /** An alert on (new or back): pushed at once, marked on the event that raised it, told to who listens. */
  private announce(a: Alert): void {
    this.changes.urgent();
    if (this.raisingEvent) markRaisingEvent(this.raisingEvent, a);
    for (const listener of this.listeners) listener(a);
  }

  occurred(kind: AlertKind, severity: Alert['severity'], at: number, nodeId: number | null, message: string): void {
    const window = this.silencing(kind, severity);
    if (window === null) return this.book.occurred(kind, severity, at, nodeId, message);
    const id = `s${this.nextSilenced++}`;
    this.history.raised({ id, kind, severity, nodeId, message, at }, window);
    this.history.cleared(id, at);
  }

  isActive(key: string): boolean {
    return this.book.isActive(key) || this.silenced.has(key);
  }

  revise(key: string, message: string, clusterWide?: Alert['clusterWide'], level?: Alert['level']): void {
    const words = message + this.recurrences.suffix(key);
    const revised = this.book.revise(key, words, clusterWide, level);
    if (revised) {
      this.changes.other();
      this.history.revised(revised.id, words);
      for (const listener of this.revisedListeners) listener(revised);
    }
    const quiet = this.silenced.get(key);
    if (quiet) {
      quiet.message = message;
      quiet.clusterWide = clusterWide ?? quiet.clusterWide;
      quiet.level = level ?? quiet.level;
      this.history.revised(quiet.id, message);
    }
  }

  resolve(key: string, at: number): void {
    const quiet = this.silenced.get(key);
    if (quiet) {
      this.silenced.delete(key);
      this.history.cleared(quiet.id, at);
    }
    this.book.resolve(key, at);
  }

  /**
   * A maintenance window changed: kept in the history; once one closed, what it kept quiet and is still on (and no
   * longer silenced) is raised now.
   */
  windowEvent(event: MaintenanceEvent): void {
    this.history.window(event);
    if (event.what === 'closed' || event.what === 'expired') this.windowClosed(event.at);
  }

  private windowClosed(at: number): void {
    for (const [key, s] of this.silenced) {
      if (this.silencing(s.kind, s.severity) !== null) continue;
      this.silenced.delete(key);
      this.history.cleared(s.id, at);
      this.book.raise(key, s.kind, s.severity, at, s.nodeId, `${s.message} (still so after maintenance)`, s.clusterWide, s.level);
    }
  }

  alertHistory(): AlertHistory {
    return this.history.view();
  }

  visible(): Alert[] {
    return this.book.visible();
  }

  /** Alerts raised per kind and severity, for exporters. */
  counts(): AlertCount[] {
    return this.tally.view();
  }
}
