import type { ClusterEvent } from '../../../../native-mgm/index.js';
import { subjectOf } from './incident-signs.js';

/** One node's (or the whole cluster's) events in the story, oldest first from `head`. */
interface Lane {
  events: ClusterEvent[];
  /** Each event's place in the story's arrival order. */
  seqs: number[];
  head: number;
}

type Subject = number | 'cluster';

/** Events about some subjects in arrival order, with their places in the story. */
export interface Gathered {
  events: ClusterEvent[];
  seqs: number[];
}

/** `a` and `b` (no event in both) as one, in arrival order. */
export function merged(a: Gathered, b: Gathered): Gathered {
  const out: Gathered = { events: [], seqs: [] };
  let i = 0;
  let j = 0;
  while (i < a.seqs.length || j < b.seqs.length) {
    const fromA = j >= b.seqs.length || (i < a.seqs.length && (a.seqs[i] as number) < (b.seqs[j] as number));
    const [g, k] = fromA ? [a, i++] : [b, j++];
    out.events.push(g.events[k] as ClusterEvent);
    out.seqs.push(g.seqs[k] as number);
  }
  return out;
}

/**
 * The story events of the last span (`IncidentRoom`), in arrival order, with each event also kept in a lane of the
 * node it is about (`subjectOf`). A fall gathers the events about its nodes from their lanes: a 144-node split keeps
 * ~100,000 events in the story, and scanning all of them for each of its 72 falls held the engine's loop for seconds.
 * Old events are dropped by moving a start index, as a storm brings thousands a second.
 */
export class Story {
  private order: Array<{ at: number; subject: Subject }> = [];
  private head = 0;
  /** The arrival number of `order[head]`. */
  private headSeq = 0;
  private readonly lanes = new Map<Subject, Lane>();

  /** Keeps `e` and drops, from the oldest on, the events received before `oldest`. */
  add(e: ClusterEvent, oldest: number): void {
    const subject = subjectOf(e);
    const seq = this.headSeq + this.order.length - this.head;
    this.order.push({ at: e.receivedAt, subject });
    const lane = this.lanes.get(subject) ?? { events: [], seqs: [], head: 0 };
    lane.events.push(e);
    lane.seqs.push(seq);
    this.lanes.set(subject, lane);
    this.forgetBefore(oldest);
  }

  /** Drops, from the oldest on, the events received before `oldest`: also when none comes (a storm's story goes once it is old). */
  forgetBefore(oldest: number): void {
    for (let first = this.order[this.head]; first !== undefined && first.at < oldest; first = this.order[this.head]) this.drop(first.subject);
    if (this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
  }

  /** The place in the story of the event added last. */
  get lastSeq(): number {
    return this.headSeq + this.order.length - this.head - 1;
  }

  /** The kept events received from `from` on that are about one of `subjects` (nodes, or the whole cluster), in arrival order. */
  about(subjects: Iterable<Subject>, from: number): Gathered {
    const found: Array<{ seq: number; e: ClusterEvent }> = [];
    for (const subject of subjects) {
      const lane = this.lanes.get(subject);
      if (!lane) continue;
      for (let i = lane.head; i < lane.events.length; i++) {
        const e = lane.events[i] as ClusterEvent;
        if (e.receivedAt >= from) found.push({ seq: lane.seqs[i] as number, e });
      }
    }
    found.sort((a, b) => a.seq - b.seq);
    return { events: found.map((x) => x.e), seqs: found.map((x) => x.seq) };
  }

  /** The oldest event goes; it is the oldest of its lane too. */
  private drop(subject: Subject): void {
    this.head += 1;
    this.headSeq += 1;
    const lane = this.lanes.get(subject) as Lane;
    lane.head += 1;
    if (lane.head === lane.events.length) this.lanes.delete(subject);
    else if (lane.head * 2 > lane.events.length) {
      lane.events = lane.events.slice(lane.head);
      lane.seqs = lane.seqs.slice(lane.head);
      lane.head = 0;
    }
  }
}
