import type { EventView, Severity } from '../../../contract/schemas/events.js';
import { SeveritySchema } from '../../../contract/schemas/events.js';
import type { ClusterEvent } from '../../../../native-mgm/index.js';
import { eventText } from './event-text.js';

/** Fields naming the node an event is about, in the order they are looked for. */
const SUBJECT_FIELDS = ['failed_node', 'dest_node', 'node', 'node_id', 'to_node', 'from_node'];

function severityOf(raw: string | null): Severity | null {
  const parsed = SeveritySchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

export function toEventView(e: ClusterEvent, seq: number): EventView {
  const subject = SUBJECT_FIELDS.map((f) => e.fields[f]).find((v) => v !== undefined);
  return {
    seq,
    at: e.receivedAt,
    typeId: e.typeId,
    name: e.name,
    category: e.category,
    severity: severityOf(e.severity),
    sourceNodeId: e.sourceNodeId,
    subjectNodeId: subject ?? null,
    text: eventText(e),
    fields: { ...e.fields },
  };
}

/** The cluster's event log: bounded, with a sequence number that only grows, so the UI can page and de-duplicate. */
export class EventLog {
  private readonly items: EventView[] = [];
  private nextSeq = 1;

  constructor(private readonly capacity = 10_000) {}

  add(e: ClusterEvent): EventView {
    return this.push(toEventView(e, this.nextSeq++));
  }

  private push(view: EventView): EventView {
    this.items.push(view);
    if (this.items.length > this.capacity) this.items.splice(0, this.items.length - this.capacity);
    return view;
  }

  /** An entry the engine makes itself (a configuration change), not a cluster log event. */
  note(view: Omit<EventView, 'seq'>): EventView {
    return this.push({ ...view, seq: this.nextSeq++ });
  }

  /** The newest `limit` events older than `beforeSeq`, oldest first. */
  page(beforeSeq: number | undefined, limit: number): EventView[] {
    const older = beforeSeq === undefined ? this.items : this.items.filter((e) => e.seq < beforeSeq);
    return older.slice(Math.max(0, older.length - limit));
  }
}
