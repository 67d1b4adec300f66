import type { EventView } from '../../contract.js';

/** One displayed row of the event log: a single event, or a run of the same event about the same node. */
export interface EventFold {
  /** Seq of the run's oldest event: stays the same while the run grows, so React keys and "expanded" hold. */
  key: number;
  /** The newest event of the run: what the row shows. */
  event: EventView;
  /** Every event of the run, in the order given. */
  events: EventView[];
  /** Nodes that reported the run's events, ascending. */
  sources: number[];
}

/** The node an event is about: its subject, or the reporting node when it names no other. */
function aboutNode(event: EventView): number {
  return event.subjectNodeId ?? event.sourceNodeId;
}

function sameRun(a: EventView, b: EventView): boolean {
  return a.typeId === b.typeId && a.name === b.name && aboutNode(a) === aboutNode(b);
}

/**
 * Folds consecutive events of the same type about the same node into one row: a node failure in a 144-node cluster
 * makes every survivor report "failure handling of node 3 completed", 143 rows that say one thing. Works on the
 * already filtered list in either order (newest first, or oldest first when following).
 */
export function foldEvents(events: readonly EventView[]): EventFold[] {
  const folds: EventFold[] = [];
  let run: EventView[] = [];
  const flush = (): void => {
    if (run.length === 0) return;
    const newest = run.reduce((a, b) => (b.seq > a.seq ? b : a));
    folds.push({
      key: run.reduce((min, e) => Math.min(min, e.seq), Infinity),
      event: newest,
      events: run,
      sources: [...new Set(run.map((e) => e.sourceNodeId))].sort((a, b) => a - b),
    });
    run = [];
  };
  for (const event of events) {
    const last = run[run.length - 1];
    if (last && !sameRun(last, event)) flush();
    run.push(event);
  }
  flush();
  return folds;
}
