import type { NodeGroupView, NodeView, Timeline } from '../contract.js';

/** Restarts closer together than this belong to the same rolling restart. */
export const ROUND_GAP_MS = 10 * 60_000;

export interface NodeRestart {
  nodeId: number;
  from: number;
  /** null while the node is still down or starting. */
  to: number | null;
}

export interface RollingRestartView {
  startedAt: number;
  /** Restarted in this round and STARTED again. */
  done: number[];
  /** Not STARTED now. */
  inProgress: number[];
  /** Data nodes not restarted yet in this round. */
  remaining: number[];
  /** Suggested next: the lowest remaining node whose node group can lose it. */
  next: number | null;
  exposed: NodeGroupView[];
  complete: boolean;
  /** Each node's restart in this round, in the order they went down: how long each took. */
  restarts: NodeRestart[];
  /** When the round should be over, at the pace of the restarts done so far; null before the first is done. */
  etaAt: number | null;
}

/** One outage per node restart: back-to-back non-STARTED segments (stopping, down, starting) are one restart. */
function outages(timeline: Timeline, dataNodeIds: ReadonlySet<number>): NodeRestart[] {
  const out: NodeRestart[] = [];
  for (const row of timeline.nodes) {
    if (!dataNodeIds.has(row.nodeId)) continue;
    let open: NodeRestart | null = null;
    for (const seg of row.segments) {
      if (seg.status === 'STARTED') {
        open = null;
        continue;
      }
      if (open && open.to === seg.from) open.to = seg.to;
      else {
        open = { nodeId: row.nodeId, from: seg.from, to: seg.to };
        out.push(open);
      }
    }
  }
  return out.sort((a, b) => a.from - b.from);
}

/**
 * The rounds in a list of restarts: a round ends after a quiet gap of ROUND_GAP_MS, or when a node it already
 * restarted goes down again (the operator's loop came round: a new rolling restart, not "7 done, 0 to go" forever).
 */
function lastRound(list: readonly NodeRestart[], now: number): NodeRestart[] {
  let start = 0;
  let reach = -Infinity;
  let seen = new Set<number>();
  list.forEach((o, i) => {
    if (o.from - reach >= ROUND_GAP_MS || seen.has(o.nodeId)) {
      start = i;
      seen = new Set();
    }
    seen.add(o.nodeId);
    reach = Math.max(reach, o.to ?? now);
  });
  return list.slice(start);
}

/** The current (or just finished) rolling restart, or null when no data node has been down lately. */
export function rollingRestart(timeline: Timeline, nodes: ReadonlyMap<number, NodeView>, nodeGroups: readonly NodeGroupView[], now: number): RollingRestartView | null {
  const dataNodes = [...nodes.values()].filter((n) => n.type === 'NDB').sort((a, b) => a.nodeId - b.nodeId);
  const list = outages(timeline, new Set(dataNodes.map((n) => n.nodeId)));
  if (list.length === 0) return null;
  const round = lastRound(list, now);
  const reach = Math.max(...round.map((o) => o.to ?? now));
  if (now - reach >= ROUND_GAP_MS) return null;
  const touched = new Set(round.map((o) => o.nodeId));
  const inProgress = dataNodes.filter((n) => n.status !== 'STARTED').map((n) => n.nodeId);
  const done = [...touched].filter((id) => !inProgress.includes(id)).sort((a, b) => a - b);
  const remaining = dataNodes.filter((n) => !touched.has(n.nodeId) && n.status === 'STARTED');
  const next = inProgress.length > 0 ? null : (remaining.find((n) => n.safeToStop === true)?.nodeId ?? null);
  const startedAt = round[0]?.from ?? now;
  const complete = inProgress.length === 0 && remaining.length === 0;
  return {
    startedAt,
    done,
    inProgress,
    remaining: remaining.map((n) => n.nodeId),
    next,
    exposed: nodeGroups.filter((g) => g.health !== 'OK'),
    complete,
    restarts: round,
    etaAt: complete ? null : eta(round, done.length, remaining.length, startedAt, now),
  };
}

/**
 * The pace so far (the round's time, waits between restarts included, over the restarts finished) times what is
 * left; a restart under way counts as what is left of one.
 */
function eta(round: readonly NodeRestart[], doneCount: number, remainingCount: number, startedAt: number, now: number): number | null {
  const finished = round.filter((o) => o.to !== null);
  if (doneCount === 0 || finished.length === 0) return null;
  const lastEnd = Math.max(...finished.map((o) => o.to ?? 0));
  const pace = (lastEnd - startedAt) / finished.length;
  const running = round.filter((o) => o.to === null).map((o) => Math.max(0, pace - (now - o.from)));
  return now + pace * remainingCount + Math.max(0, ...running);
}
