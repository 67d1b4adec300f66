import { baselineFor, phaseProgress, restartCompleted, type NdbinfoNode, type NodeView, type PhaseProgress, type RestartTimes, type RollingPlanView, type RollingRestart } from '../../contract.js';
import { restartSourceText, restartStateText } from './restart-state-text.js';

export interface StartingNodePhases {
  nodeId: number;
  /** The node's one restart state in words, as every other panel says it, and which source said it. */
  now: string;
  source: string | null;
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
 * Every data node on its way back (its restart state, both sources joined, is not started) with its phases: done,
 * running and pending, each beside the baseline from its own previous restart, else from the nodes this round
 * restarted already. The phase running is the restart state's, so the table says what the progress panel says.
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
    const state = n.restartState ?? null;
    if (state ? state.state === 'started' : n.status === 'STARTED') continue;
    const words = { nodeId: n.nodeId, now: restartStateText(n), source: state && restartSourceText(state) };
    const figure = figures.get(n.nodeId);
    if (figure?.restart?.inProgress !== true || figure.stale || state?.state !== 'restarting') {
      out.push({ ...words, progress: null });
      continue;
    }
    const { baselines, from } = baselineFor(n.nodeId, figure.previousRestart, others);
    const startedAt = round?.restarts.find((r) => r.nodeId === n.nodeId && r.to === null)?.from ?? null;
    out.push({ ...words, progress: phaseProgress(figure.restart, now, startedAt, baselines, from, state.phase) });
  }
  return out.sort((a, b) => a.nodeId - b.nodeId);
}
