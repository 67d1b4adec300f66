import type { Alert } from '../../../contract/schemas/events.js';
import type { AlertHistory, AlertHistoryEntry, MaintenanceEvent } from '../../../contract/schemas/maintenance.js';

/** How many alerts the history keeps; the oldest cleared ones go first. */
export const HISTORY_CAPACITY = 2000;
/** How many maintenance window events it keeps; the oldest go first. */
const WINDOW_EVENTS_CAPACITY = 1000;

/**
 * Every alert of the session from raise to clear, silenced ones included (marked with their window), and what
 * happened to every maintenance window, bounded: the alert book keeps what still needs a look, this keeps what
 * happened, for the history view and its endpoint.
 */
export class AlertHistoryBook {
  private readonly entries: AlertHistoryEntry[] = [];
  private readonly open = new Map<string, AlertHistoryEntry>();
  private readonly windows: MaintenanceEvent[] = [];
  private dropped = 0;
  /** Entries on again after they cleared: the time they were on before, and since when they are on again. */
  private readonly reopened = new Map<string, { onMs: number; since: number }>();

  raised(alert: Pick<Alert, 'id' | 'kind' | 'severity' | 'nodeId' | 'message' | 'at'>, silencedBy: string | null): void {
    const entry: AlertHistoryEntry = { id: alert.id, kind: alert.kind, severity: alert.severity, nodeId: alert.nodeId, message: alert.message, raisedAt: alert.at, clearedAt: null, durationMs: null, silencedBy };
    this.entries.push(entry);
    this.open.set(alert.id, entry);
    this.trim();
  }

  /** An alert still on says what it says now (a cluster-wide alert's count grows as nodes reach the mark). */
  revised(id: string, message: string): void {
    const entry = this.open.get(id);
    if (entry) entry.message = message;
  }

  /** A cleared alert came back (the same condition during the same run): one row, on again, with its new words. */
  reopen(id: string, at: number, message: string): void {
    const entry = this.entries.findLast((e) => e.id === id);
    if (!entry || entry.clearedAt === null) return;
    this.reopened.set(id, { onMs: entry.durationMs ?? 0, since: Math.max(entry.clearedAt, at) });
    entry.clearedAt = null;
    entry.durationMs = null;
    entry.message = message;
    this.open.set(id, entry);
  }

  /** Its duration is the time it was on, summed over its returns. */
  cleared(id: string, at: number): void {
    const entry = this.open.get(id);
    if (!entry) return;
    const back = this.reopened.get(id);
    entry.clearedAt = Math.max(back?.since ?? entry.raisedAt, at);
    entry.durationMs = (back?.onMs ?? 0) + entry.clearedAt - (back?.since ?? entry.raisedAt);
    this.open.delete(id);
    this.reopened.delete(id);
  }

  window(event: MaintenanceEvent): void {
    this.windows.push(event);
    if (this.windows.length > WINDOW_EVENTS_CAPACITY) this.windows.shift();
  }

  view(): AlertHistory {
    return { entries: this.entries.map((e) => ({ ...e })), dropped: this.dropped, maintenance: this.windows.map((e) => ({ ...e })) };
  }

  private trim(): void {
    while (this.entries.length > HISTORY_CAPACITY) {
      const i = this.entries.findIndex((e) => e.clearedAt !== null);
      const [gone] = this.entries.splice(i < 0 ? 0 : i, 1);
      if (gone) this.open.delete(gone.id);
      if (gone) this.reopened.delete(gone.id);
      this.dropped++;
    }
  }
}
