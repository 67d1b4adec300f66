import type { EventView } from '../../../contract/schemas/events.js';
import type { ClusterEvent } from '../../../../native-mgm/index.js';
import { EventLog } from '../../facts/events/event-log.js';

/** Statistics reports become rates; thousands a minute would drown the log. */
const NOT_LOGGED = new Set(['TransReportCounters', 'OperationReportCounters']);

/** The cluster's event log and the entries an input added, which the tracker hands on as one batch. */
export class ClusterLog {
  private readonly log: EventLog;
  private added: EventView[] = [];
  private readonly listeners: Array<(view: EventView) => void> = [];

  constructor(size: number | undefined) {
    this.log = new EventLog(size);
  }

  /** The event's entry, or null for the kinds that are not logged. */
  add(e: ClusterEvent): EventView | null {
    if (NOT_LOGGED.has(e.name)) return null;
    const view = this.log.add(e);
    this.entry(view);
    return view;
  }

  /** Told every entry as it is made. */
  onEntry(listener: (view: EventView) => void): void {
    this.listeners.push(listener);
  }

  private entry(view: EventView): void {
    this.added.push(view);
    for (const l of this.listeners) l(view);
  }

  /** An entry the engine makes itself (a connection change, the first status, a new configuration). */
  note(note: Omit<EventView, 'seq'>): void {
    this.entry(this.log.note(note));
  }

  page(beforeSeq: number | undefined, limit: number): EventView[] {
    return this.log.page(beforeSeq, limit);
  }

  /** Every kept entry in [from, to]. */
  between(from: number, to: number): EventView[] {
    return this.log.page(undefined, Number.MAX_SAFE_INTEGER).filter((e) => e.at >= from && e.at <= to);
  }

  /** The entries added since the last call; none (most inputs: every statistics report) allocates nothing. */
  takeAdded(): EventView[] {
    const added = this.added;
    if (added.length > 0) this.added = [];
    return added;
  }
}
