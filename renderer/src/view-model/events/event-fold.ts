import type { EventView } from '../../contract.js';

/**
 * One displayed row of the event log: a single event, a run of the same event about the same node, or a run of one
 * routine report from many nodes (memory threshold crossings).
 */
export interface EventFold {
  /** Seq of the run's oldest event: stays the same while the run grows, so React keys and "expanded" hold. */
  key: number;
  /** The newest event of the run: what the row shows. */
  event: EventView;
  /** Every event of the run, in the order given. */
  events: EventView[];
  /** Nodes that reported the run's events, ascending. */
  sources: number[];
  /** Nodes the run's events are about, ascending: more than one for a run of a routine report from many nodes. */
  nodes: number[];
}

/** The node an event is about: its subject, or the reporting node when it names no other. */
function aboutNode(event: EventView): number {
  return event.subjectNodeId ?? event.sourceNodeId;
}

/** MemoryUsage: its `gth` is the crossing's direction (0: a report asked for), `block` the memory. */
const MEMORY_USAGE = 50;

/**
 * Threshold crossings of one memory the same way at the same severity, from any node: NDB spreads rows evenly, so a
 * cluster filling or emptying sends one from every data node (~430 a 144-node benchmark cycle), and they would push
 * everything else off the screen. One that raised an alert carries the alert's severity and so stands apart.
 */
function sameCrossing(a: EventView, b: EventView): boolean {
  const gth = (e: EventView): number => Math.sign(e.fields['gth'] ?? 0);
  return a.typeId === MEMORY_USAGE && gth(a) !== 0 && gth(a) === gth(b) && a.fields['block'] === b.fields['block'] && a.severity === b.severity;
}

function sameRun(a: EventView, b: EventView): boolean {
  return a.typeId === b.typeId && a.name === b.name && (aboutNode(a) === aboutNode(b) || sameCrossing(a, b));
}

/**
 * Folds consecutive events of the same type about the same node into one row: a node failure in a 144-node cluster
 * makes every survivor report "failure handling of node 3 completed", 143 rows that say one thing; and consecutive
 * memory crossings of many nodes (`sameCrossing`). Nothing is dropped: the row expands to every event. Works on the
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
      nodes: [...new Set(run.map(aboutNode))].sort((a, b) => a - b),
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
