import type { NodeGroupView, NodeView, Timeline } from '../contract.js';

/** Restarts closer together than this belong to the same rolling restart. */
export const ROUND_GAP_MS = 10 * 60_000;

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
}

interface Outage {
  nodeId: number;
  from: number;
  to: number;
}

function outages(timeline: Timeline, dataNodeIds: ReadonlySet<number>, now: number): Outage[] {
  const out: Outage[] = [];
  for (const row of timeline.nodes) {
    if (!dataNodeIds.has(row.nodeId)) continue;
    for (const seg of row.segments) if (seg.status !== 'STARTED') out.push({ nodeId: row.nodeId, from: seg.from, to: seg.to ?? now });
  }
  return out.sort((a, b) => a.from - b.from);
}

/** The current (or just finished) rolling restart, or null when no data node has been down lately. */
export function rollingRestart(
  timeline: Timeline,
  nodes: ReadonlyMap<number, NodeView>,
  nodeGroups: readonly NodeGroupView[],
  now: number,
): RollingRestartView | null {
  const dataNodes = [...nodes.values()].filter((n) => n.type === 'NDB').sort((a, b) => a.nodeId - b.nodeId);
  const list = outages(timeline, new Set(dataNodes.map((n) => n.nodeId)), now);
  if (list.length === 0) return null;
  let start = 0;
  let reach = list[0]?.to ?? now;
  list.forEach((o, i) => {
    if (i > 0 && o.from - reach >= ROUND_GAP_MS) start = i;
    reach = Math.max(reach, o.to);
  });
  if (now - reach >= ROUND_GAP_MS) return null;
  const round = list.slice(start);
  const touched = new Set(round.map((o) => o.nodeId));
  const inProgress = dataNodes.filter((n) => n.status !== 'STARTED').map((n) => n.nodeId);
  const done = [...touched].filter((id) => !inProgress.includes(id)).sort((a, b) => a - b);
  const remaining = dataNodes.filter((n) => !touched.has(n.nodeId) && n.status === 'STARTED');
  const next = inProgress.length > 0 ? null : (remaining.find((n) => n.safeToStop === true)?.nodeId ?? null);
  return {
    startedAt: round[0]?.from ?? now,
    done,
    inProgress,
    remaining: remaining.map((n) => n.nodeId),
    next,
    exposed: nodeGroups.filter((g) => g.health !== 'OK'),
    complete: inProgress.length === 0 && remaining.length === 0,
  };
}
