import { baselineFor, phaseProgress, restartCompleted, type NdbinfoNode, type NodeView, type PhaseProgress, type RestartTimes, type RollingPlanView, type RollingRestart } from '../../contract.js';

export interface StartingNodePhases {
  nodeId: number;
  /** null: ndbinfo has no row of this restart yet. */
  progress: PhaseProgress | null;
}

/** A node's latest completed restart as restart_info timed it (the one before, while a new one runs). */
function lastCompleted(n: NdbinfoNode | undefined): RestartTimes | null {
  if (n?.restart && restartCompleted(n.restart)) return n.restart;
  if (n?.previousRestart && restartCompleted(n.previousRestart)) return n.previousRestart;
  return null;
}

/**
 * Every data node on its way back (not STARTED, or restart_info still under way) with its phases: done, running and
 * pending, each beside the baseline from its own previous restart, else from the nodes this round restarted already.
 */
export function startingNodePhases(
  nodes: ReadonlyMap<number, NodeView>,
  figures: ReadonlyMap<number, NdbinfoNode>,
  round: RollingRestart | null,
  plan: RollingPlanView | null,
  now: number,
): StartingNodePhases[] {
  const restartedThisRound = new Set<number>([...(round?.done ?? []), ...(plan?.steps.filter((s) => s.state === 'done').flatMap((s) => s.nodes) ?? [])]);
  const others = [...restartedThisRound].map((id) => ({ nodeId: id, restart: lastCompleted(figures.get(id)) }));
  const out: StartingNodePhases[] = [];
  for (const n of nodes.values()) {
    if (n.type !== 'NDB') continue;
    const figure = figures.get(n.nodeId);
    const underWay = figure?.restart?.inProgress === true && !figure.stale;
    if (n.status === 'STARTED' && !underWay) continue;
    if (!underWay || !figure?.restart) {
      out.push({ nodeId: n.nodeId, progress: null });
      continue;
    }
    const { baselines, from } = baselineFor(n.nodeId, figure.previousRestart, others);
    const startedAt = round?.restarts.find((r) => r.nodeId === n.nodeId && r.to === null)?.from ?? null;
    out.push({ nodeId: n.nodeId, progress: phaseProgress(figure.restart, now, startedAt, baselines, from) });
  }
  return out.sort((a, b) => a.nodeId - b.nodeId);
}
