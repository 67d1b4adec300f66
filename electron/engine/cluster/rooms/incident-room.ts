import { INCIDENT_CAUSE_KINDS, type Incident, type IncidentCauseKind, type IncidentEvidence, type IncidentFigure, type IncidentRestart } from '../../../contract/schemas/incidents.js';
import type { NodeStatus } from '../../../contract/schemas/node.js';
import { figureValue } from '../../../contract/page-safe/incident-words.js';
import { arbitrationWon, type ClusterEvent } from '../../../../native-mgm/index.js';
import { beforeFigures, type FigureSources } from '../../features/incidents/before-figures.js';
import { judgeCauses, type Causes } from '../../features/incidents/incident-cause.js';
import { concerns, eventSigns, figureSigns, isStoryEvent, storyText, type Sign } from '../../features/incidents/incident-signs.js';
import { RestartLedger } from '../../features/incidents/restart-ledger.js';
import { merged, Story, type Gathered } from '../../features/incidents/story.js';
import { isUp } from '../node-status.js';
import type { PlannedWork } from './planned-work.js';
import type { Room, StatusChange } from './room.js';

/** The stretch before a fall whose events and figures are its story. */
export const BEFORE_MS = 60_000;
/** Events after the fall that still tell why (the node's own forced-shutdown report, the president's arbitration). */
const GATHER_MS = 30_000;
/** Data nodes falling this close together are one incident (a split, a node group). */
const GROUP_MS = 10_000;
/** How many incidents a cluster keeps (the oldest go first; the tally keeps counting them). */
const CAPACITY = 200;
/** Events of one name an incident keeps (its evidence and its minute), beyond which survivors only repeat them. */
const SAME_EVENTS_KEPT = 12;
const ARBITRATION = new Set(['ArbitResult', 'ArbitState']);

interface Open {
  id: string;
  /** The fallen data nodes, in the order they fell. */
  nodes: Set<number>;
  noticedAt: number;
  /** Where its story begins: a minute before the fall, or when its nodes were last back if that is later. */
  from: number;
  status: NodeStatus;
  beganBeforeWatching: boolean;
  events: ClusterEvent[];
  /** How many of `events` bear each name (the SAME_EVENTS_KEPT cap asks it of every event that concerns the incident). */
  named: Map<string, number>;
  /**
   * Every story event about its nodes from the minute before on, while another node may still join it (it is the
   * newest, and nothing that old has left the story): a joining node adds its own events to these, rather than the
   * story being gathered again for each of a split's 72 falls. null: gathered from the story when needed.
   */
  gathered: Gathered | null;
  /**
   * Nodes left it (`neverFell`) and `events` still hold what was about them: filtered when next used. A split's
   * winners leave one by one, 72 in one poll, and filtering tens of thousands of events for each held the loop.
   */
  stale: boolean;
  figures: IncidentFigure[];
  /** What the status changes said (a graceful stop the server announced). */
  statusSigns: Sign[];
  /**
   * Judged when read, null until then: a 144-node split brings hundreds of events a second that concern the incident,
   * and judging all its events again on each held the engine's loop for seconds. The judgement is a function of the
   * incident alone, so when it runs changes nothing of what it says.
   */
  causes: Causes | null;
}

export interface IncidentRoomOptions {
  planned: PlannedWork;
  /** An open maintenance window expects data nodes to leave (it silences node-down). */
  expected: () => boolean;
  figures: FigureSources;
}

/**
 * Incidents: each data node (or several together) leaving STARTED without a stop ndbtop asked for, a declared plan
 * (a rolling restart) or an open maintenance window expecting it, explained from the events and figures of the
 * minute before and the half minute after (`features/incidents/`), and followed through its restart. A graceful stop
 * another client asked for is an `operator` incident. Pure like every room: a replay of the same inputs derives the
 * same incidents, ids included.
 */
export class IncidentRoom implements Room {
  /** The story events of the last BEFORE_MS + GATHER_MS. */
  private readonly story = new Story();
  private readonly incidents: Open[] = [];
  private readonly ledger = new RestartLedger();
  private readonly statuses = new Map<number, NodeStatus>();
  private firstSeenDown: Array<{ nodeId: number; status: NodeStatus; at: number }> = [];
  private readonly evicted = new Map<IncidentCauseKind, number>();

  constructor(private readonly options: IncidentRoomOptions) {}

  status({ nodeId, type, previous, status, phase, at }: StatusChange): void {
    if (type !== 'NDB') return;
    this.statuses.set(nodeId, status);
    this.ledger.status(nodeId, previous, status, phase, at);
    if (previous === null && !isUp(status)) this.firstSeenDown.push({ nodeId, status, at });
    else if (previous !== null && isUp(previous) && !isUp(status)) this.fell(nodeId, status, at);
    else if (previous !== null && !isUp(previous) && isUp(status) && previous !== 'STARTING') this.neverFell(nodeId, at);
  }

  event(e: ClusterEvent): boolean {
    if (!isStoryEvent(e)) return false;
    this.story.add(e, e.receivedAt - BEFORE_MS - GATHER_MS);
    for (const o of this.incidents) {
      if (e.receivedAt > o.noticedAt + GATHER_MS) {
        o.gathered = null;
        continue;
      }
      if (!concerns(e, o.nodes)) continue;
      fresh(o);
      if (o.gathered && e.receivedAt >= o.from) {
        o.gathered.events.push(e);
        o.gathered.seqs.push(this.story.lastSeq);
      }
      const same = o.named.get(e.name) ?? 0;
      if (!ARBITRATION.has(e.name) && same >= SAME_EVENTS_KEPT) continue;
      o.events.push(e);
      o.named.set(e.name, same + 1);
      o.causes = null;
    }
    return false;
  }

  forget(nodeId: number): void {
    this.statuses.delete(nodeId);
    this.ledger.forget(nodeId);
  }

  /**
   * The story's old events go with time, not only when a newer one comes: a storm's tens of thousands would stay
   * through the quiet after it (9.6 → 14.2 MB of a soak's engine heap). Then: nodes first seen down while others are
   * up fell before ndbtop watched, one incident for them, saying so.
   */
  settle(at: number): void {
    this.story.forgetBefore(at - BEFORE_MS - GATHER_MS);
    const newest = this.incidents[this.incidents.length - 1];
    if (newest?.gathered && at > newest.noticedAt + GATHER_MS) newest.gathered = null;
    if (this.firstSeenDown.length === 0) return;
    const down = this.firstSeenDown;
    this.firstSeenDown = [];
    if (![...this.statuses.values()].some(isUp)) return;
    const first = down[0] as (typeof down)[number];
    const o = this.open(first.nodeId, first.status, first.at, true);
    for (const d of down.slice(1)) o.nodes.add(d.nodeId);
  }

  /** The newest incident `nodeId` is part of (the node-down alert links it). */
  incidentOf(nodeId: number): string | null {
    for (let i = this.incidents.length - 1; i >= 0; i--) if (this.incidents[i]?.nodes.has(nodeId)) return this.incidents[i]?.id ?? null;
    return null;
  }

  /** Newest first. */
  list(): Incident[] {
    return this.incidents.map((o) => this.view(o)).reverse();
  }

  /** One incident by its id; null when it is not (or no longer) kept. */
  find(id: string): Incident | null {
    const o = this.incidents.find((x) => x.id === id);
    return o ? this.view(o) : null;
  }

  /** Incidents per cause kind since the start, every kind, the ones no longer kept included (Prometheus counters). */
  counts(): Record<IncidentCauseKind, number> {
    const out = Object.fromEntries(INCIDENT_CAUSE_KINDS.map((k) => [k, this.evicted.get(k) ?? 0])) as Record<IncidentCauseKind, number>;
    for (const o of this.incidents) out[causesOf(o).cause.kind] += 1;
    return out;
  }

  private fell(nodeId: number, status: NodeStatus, at: number): void {
    const asked = this.options.planned.askedBy(nodeId);
    if (asked === 'engine' || asked === 'declared' || this.options.expected()) return;
    const last = this.incidents[this.incidents.length - 1];
    // Falling together: within GROUP_MS, while a node of the last incident is still down (one that is back fell before).
    const joins = last !== undefined && !last.beganBeforeWatching && at - last.noticedAt <= GROUP_MS && !last.nodes.has(nodeId) && [...last.nodes].some((id) => !isUp(this.statuses.get(id) ?? 'UNKNOWN'));
    const o = joins ? last : this.open(nodeId, status, at, false);
    o.nodes.add(nodeId);
    // What came before a node was last back was its previous fall's story (a node falling twice in a minute).
    const lastBack = this.ledger.lastBack(nodeId);
    o.from = Math.max(o.from, lastBack ?? o.from);
    o.gathered = joins && o.gathered ? merged(o.gathered, this.story.about([nodeId], o.from)) : this.story.about([...o.nodes, 'cluster'], o.from);
    o.events = newestOfEach(o.gathered.events, o.from);
    o.named = namesOf(o.events);
    o.stale = false;
    o.causes = null;
    o.figures.push(...beforeFigures(this.options.figures, nodeId, Math.max(at - BEFORE_MS, lastBack ?? 0), at));
    if (asked === 'server') o.statusSigns.push({ kind: 'operator', weight: 3, evidence: { at, source: 'status', text: `Node ${nodeId}: ${status === 'SHUTTING_DOWN' ? 'SHUTTING_DOWN' : 'stopping'}, a graceful stop the management server announced (asked by a client other than ndbtop)` } });
  }

  /**
   * Up again without a start: it never went down. After a split the losing side reports the winners failed
   * (NODE_FAILREP) before it shuts down, so they look down until the next poll; they are no part of the incident.
   */
  private neverFell(nodeId: number, at: number): void {
    const o = this.incidents.find((x) => x.nodes.has(nodeId) && at - x.noticedAt <= GATHER_MS);
    if (!o || this.ledger.restartSince(nodeId, o.noticedAt).startedAt !== null) return;
    o.nodes.delete(nodeId);
    if (o.nodes.size === 0) {
      this.incidents.splice(this.incidents.indexOf(o), 1);
      return;
    }
    o.figures = o.figures.filter((f) => f.nodeId !== nodeId);
    o.statusSigns = o.statusSigns.filter((sg) => !sg.evidence.text.startsWith(`Node ${nodeId}:`));
    o.gathered = null;
    o.stale = true;
    o.causes = null;
  }


  private open(nodeId: number, status: NodeStatus, at: number, beganBeforeWatching: boolean): Open {
    const o: Open = { id: `inc-${at}-n${nodeId}`, nodes: new Set([nodeId]), noticedAt: at, from: at - BEFORE_MS, status, beganBeforeWatching, events: [], named: new Map(), gathered: null, stale: false, figures: [], statusSigns: [], causes: null };
    // Only the newest incident is joined.
    const before = this.incidents[this.incidents.length - 1];
    if (before) before.gathered = null;
    this.incidents.push(o);
    while (this.incidents.length > CAPACITY) {
      const kind = causesOf(this.incidents.shift() as Open).cause.kind;
      this.evicted.set(kind, (this.evicted.get(kind) ?? 0) + 1);
    }
    return o;
  }

  private view(o: Open): Incident {
    const causes = causesOf(o);
    // The first sign is the cause's first event (a figure's time is only when it was last read).
    const first = causes.cause.evidence.filter((e) => e.source === 'event').reduce((min, e) => Math.min(min, e.at), o.noticedAt);
    return {
      id: o.id,
      nodeIds: [...o.nodes],
      startedAt: Math.max(first, o.from),
      noticedAt: o.noticedAt,
      planned: false,
      ...(o.beganBeforeWatching ? { beganBeforeWatching: true } : {}),
      cause: causes.cause,
      ...(causes.otherCauses.length > 0 ? { otherCauses: causes.otherCauses } : {}),
      before: { from: o.from, figures: o.figures.map((f) => ({ ...f })), events: o.events.map(evidenceOf) },
      restart: this.restart(o),
    };
  }

  /** The restart of the node that took longest to come back: one not back yet, or not even starting, first. */
  private restart(o: Open): IncidentRestart {
    const all = [...o.nodes].map((id) => this.ledger.restartSince(id, o.noticedAt));
    const rank = (r: IncidentRestart): number => (r.startedAt === null ? Infinity : r.backAt ?? Number.MAX_SAFE_INTEGER);
    return all.reduce((worst, r) => (rank(r) > rank(worst) ? r : worst));
  }
}

/** How many of `events` bear each name. */
function namesOf(events: readonly ClusterEvent[]): Map<string, number> {
  const named = new Map<string, number>();
  for (const e of events) named.set(e.name, (named.get(e.name) ?? 0) + 1);
  return named;
}

/** The incident with only the events about its nodes (those that left taken out). */
function fresh(o: Open): Open {
  if (!o.stale) return o;
  o.stale = false;
  o.events = o.events.filter((e) => concerns(e, o.nodes));
  o.named = namesOf(o.events);
  o.causes = null;
  return o;
}

function causesOf(o: Open): Causes {
  fresh(o);
  if (o.causes) return o.causes;
  const nodeIds = [...o.nodes];
  const eventSignList = o.events.flatMap((e) => eventSigns(e, o.nodes));
  const named = new Set(eventSignList.filter((s) => s.weight >= 2).map((s) => s.kind));
  const signs = [...eventSignList, ...o.statusSigns, ...figureSigns(o.figures, named)];
  const fallText = nodeIds.map((id) => `Node ${id}: ${o.beganBeforeWatching ? `first seen ${o.status}` : `left STARTED (now ${o.status})`}`).join('; ');
  const seen: IncidentEvidence[] = [{ at: o.noticedAt, source: 'status', text: fallText }, ...o.events.map(evidenceOf), ...o.figures.map((f) => figureEvidence(f))];
  const survivors = [...new Set(o.events.filter((e) => e.name === 'ArbitResult' && !o.nodes.has(e.sourceNodeId) && arbitrationWon(e.fields.code ?? 0)).map((e) => e.sourceNodeId))];
  o.causes = judgeCauses(signs, seen, { nodeIds, status: o.status, noticedAt: o.noticedAt, beganBeforeWatching: o.beganBeforeWatching, survivors });
  return o.causes;
}

/**
 * At 144 data nodes every survivor reports a failure (NODE_FAILREP, NodeFailCompleted per block): the first few of a
 * kind say what all say, and keeping all held up to ~3,000 events (~1 MB) an incident. Counted by name alone: by name
 * and node, a split's 72 falls kept ~2,600 events an incident and the soak's heap grew 7.7 %.
 * The events from `from` on, at most SAME_EVENTS_KEPT of each name (arbitration results all): the
 * newest, as the story by now holds every survivor's report of the fall and the fullest redo log of the minute before
 * is its last report, not its first.
 */
function newestOfEach(events: readonly ClusterEvent[], from: number): ClusterEvent[] {
  const named = new Map<string, number>();
  const kept: ClusterEvent[] = [];
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const e = events[i] as ClusterEvent;
    if (e.receivedAt < from) break;
    const same = named.get(e.name) ?? 0;
    if (!ARBITRATION.has(e.name) && same >= SAME_EVENTS_KEPT) continue;
    named.set(e.name, same + 1);
    kept.push(e);
  }
  return kept.reverse();
}

const evidenceOf = (e: ClusterEvent): IncidentEvidence => ({ at: e.receivedAt, source: 'event', text: storyText(e) });
const figureEvidence = (f: IncidentFigure): IncidentEvidence => ({ at: f.at, source: f.source, text: `Node ${f.nodeId}: ${f.name} ${figureValue(f.last, f.unit)} (peak ${figureValue(f.peak, f.unit)} in the minute before)` });
