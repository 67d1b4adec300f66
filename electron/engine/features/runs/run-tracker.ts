import type { Alert, EventView } from '../../../contract/schemas/events.js';
import type { Run } from '../../../contract/schemas/runs.js';
import { formatRate } from './format-figures.js';
import type { RunScope } from '../alerts/run-recurrences.js';
import { CollapseDetector, DEFAULT_COLLAPSE, type Collapse, type CollapseConfig, type OfferedLoad } from './collapse.js';
import { RunAlerts } from './run-alerts.js';
import { RunBook, type RunInput } from './run-book.js';

export interface RunTrackerHooks {
  /** Cluster log events in [from, to]. */
  events(from: number, to: number): EventView[];
  /** The data nodes' thread and transport figures over [from, to], one short line each (none without an SQL source). */
  insideFigures(from: number, to: number): string[];
  /** Raises the collapse alert (an occurrence: over as soon as it is raised). */
  raiseCollapse(at: number, message: string): void;
}

/** Log events that say something changed in the cluster (beyond routine checkpoints and statistics). */
const CHANGE_CATEGORIES = new Set(['STARTUP', 'SHUTDOWN', 'NODERESTART', 'CONNECTION', 'ERROR', 'CONGESTION', 'WARNING']);
const CHANGE_EVENTS = new Set(['GCP_TakeoverStarted', 'GCP_TakeoverCompleted', 'LCP_TakeoverStarted', 'LCP_TakeoverCompleted', 'LCPStoppedInCalcKeepGci', 'UndoLogBlocked', 'RedoStatus', 'TransporterError', 'TransporterWarning', 'MissedHeartbeat', 'DeadDueToHeartbeat']);
const MAX_CHANGES = 8;

/** One cluster's runs, the alerts raised while it was watched, and the collapse detector fed by its history ticks. */
export class RunTracker {
  readonly book = new RunBook();
  private readonly detector: CollapseDetector;
  private readonly raised = new RunAlerts();
  private readonly notes: Array<{ at: number; text: string }> = [];

  constructor(
    private readonly hooks: RunTrackerHooks,
    config: CollapseConfig = DEFAULT_COLLAPSE,
  ) {
    this.detector = new CollapseDetector(config);
  }

  configure(config: CollapseConfig): void {
    this.detector.configure(config);
  }

  apply(input: RunInput): Run | null {
    const run = this.book.apply(input);
    if (run) this.detector.mark(input.t);
    return run;
  }

  /** The run running now and its current phase, which an alert coming back during it names. */
  scope(): RunScope | null {
    const run = this.book.running();
    return run ? { id: run.id, name: run.name, phase: run.phases.at(-1)?.name ?? null } : null;
  }

  list(): Run[] {
    return this.book.list();
  }

  /** An alert raised, or one of a run's alerts back on (the same id: kept once, on again). */
  onAlert(alert: Alert): void {
    this.raised.onAlert(alert);
  }

  onResolved(alert: Alert): void {
    this.raised.onResolved(alert);
  }

  onRevised(alert: Alert): void {
    this.raised.onRevised(alert);
  }

  /** Alerts raised in [from, to]: what changed then. */
  alerts(from: number, to: number): Alert[] {
    return this.raised.raisedDuring(from, to);
  }

  /** Alerts active at any moment of [from, to]: raised in it, or raised before and not over when it began. */
  activeDuring(from: number, to: number): Alert[] {
    return this.raised.activeDuring(from, to);
  }

  /** Something the event log does not show but a collapse alert should list (a management-server failover). */
  note(at: number, text: string): void {
    this.notes.push({ at, text });
    if (this.notes.length > 100) this.notes.shift();
  }

  sample(at: number, transactions: number | null, offered: OfferedLoad | null = null): void {
    const collapse = this.detector.sample(at, transactions, offered);
    if (collapse) this.hooks.raiseCollapse(at, this.describe(collapse));
  }

  private describe(c: Collapse): string {
    const share = Math.round((1 - c.after / c.before) * 100);
    const head = `Cluster throughput collapsed: −${share} % within ${Math.round((c.at - c.from) / 1000)} s (from ${formatRate(c.before)} to ${formatRate(c.after)} transactions/s) while the load had been steady`;
    const from = c.from - 2000;
    const alerts = this.alerts(from, c.at);
    const alertIds = new Set(alerts.map((a) => a.id));
    // An event that raised an alert is told once, by its alert; the same sentence twice (a node's memory report
    // and the refresh that repeats it) once.
    const listed = [
      ...this.hooks
        .events(from, c.at)
        .filter((e) => (e.alertId === undefined || !alertIds.has(e.alertId)) && ((e.category !== null && CHANGE_CATEGORIES.has(e.category)) || CHANGE_EVENTS.has(e.name) || isWarning(e)))
        .map((e) => ({ at: e.at, text: e.text })),
      ...alerts.map((a) => ({ at: a.at, text: a.message })),
      ...this.notes.filter((n) => n.at >= from && n.at <= c.at),
    ].sort((a, b) => a.at - b.at);
    const seen = new Set<string>();
    const changes = listed.filter((x) => !seen.has(x.text) && seen.add(x.text));
    const figures = this.hooks.insideFigures(from, c.at);
    const inside = figures.length > 0 ? `; inside the data nodes in that window: ${figures.join('; ')}` : '';
    if (changes.length === 0) return `${head}; nothing else changed in that window (no node status change, checkpoint, overload or failover event)${inside}`;
    const more = changes.length > MAX_CHANGES ? `; and ${changes.length - MAX_CHANGES} more` : '';
    return `${head}; in that window: ${changes.slice(0, MAX_CHANGES).map((x) => x.text).join('; ')}${more}${inside}`;
  }
}

function isWarning(e: EventView): boolean {
  return e.severity !== null && e.severity !== 'DEBUG' && e.severity !== 'INFO';
}

