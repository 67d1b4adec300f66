import type { NodeProgress, Observation, ObservedNode, RollingPlan, StepRun } from '../types.js';

const sameRingPlace = (a: number | null, b: number | null): boolean => a === null || b === null || Math.abs(a) === Math.abs(b);

/** A new run's progress: each node's dynamic id before the send, so a restart missed between polls still shows. */
export function startProgress(nodes: readonly number[], obs: Observation): NodeProgress[] {
  return nodes.map((nodeId) => ({
    nodeId,
    baseline: obs.nodes.find((n) => n.nodeId === nodeId)?.dynamicId ?? null,
    left: false,
    notStartedSince: null,
    backAt: null,
  }));
}

function follow(p: NodeProgress, seen: ObservedNode | undefined, at: number): NodeProgress {
  if (!seen) return p;
  // The master's dynamic id is printed negative: a new master is not a restart.
  const left = p.left || seen.status !== 'STARTED' || !sameRingPlace(p.baseline, seen.dynamicId);
  const notStartedSince = seen.status === 'NOT_STARTED' ? (p.notStartedSince ?? at) : null;
  const backAt = left && seen.status === 'STARTED' ? (p.backAt ?? at) : null;
  return { ...p, left, notStartedSince, backAt };
}

/** What one observation tells about the run's nodes: a restart is seen only as a node going down and coming back. */
export function followRun(run: StepRun, obs: Observation): StepRun {
  if (!obs.connected || run.send === 'refused') return run;
  const byId = new Map(obs.nodes.map((n) => [n.nodeId, n]));
  return { ...run, nodes: run.nodes.map((p) => follow(p, byId.get(p.nodeId), obs.at)) };
}

/** Every node of the run went down and is STARTED again (and ndbinfo, where there is one, agrees). */
export function runBack(run: StepRun, obs: Observation): boolean {
  if (!obs.connected || (run.send !== 'accepted' && run.send !== 'lost')) return false;
  const done = obs.restartCompleted;
  return run.nodes.every((p) => p.backAt !== null && (done === null || done.includes(p.nodeId)));
}

const seconds = (ms: number): string => `${Math.round(ms / 1000)} s`;

/**
 * Why the run cannot be expected to complete any more, judged at `obs.at`; null while it still can. `unhealthy`:
 * the step's node groups not whole again though its nodes are back (`unhealthyGroups`), overdue like a late node.
 */
export function runOverdue(plan: RollingPlan, run: StepRun, obs: Observation, unhealthy: readonly string[] = []): string | null {
  const { leaveMs, notStartedMs, stepMs } = plan.limits;
  const byId = new Map(obs.nodes.map((n) => [n.nodeId, n]));
  const answered = run.answeredAt;
  if (answered !== null && obs.at - answered > leaveMs) {
    const stayed = run.nodes.filter((p) => !p.left).map((p) => p.nodeId);
    if (stayed.length > 0) {
      const why = run.send === 'lost' ? `the reply to its restart was lost (${run.lostError ?? 'connection ended'}), and it is not sent again` : 'the management server answered its restart with Ok';
      return `node ${stayed.join(', ')} never left STARTED within ${seconds(leaveMs)}, yet ${why}: the restart did not happen as expected`;
    }
  }
  for (const p of run.nodes) {
    if (p.notStartedSince !== null && obs.at - p.notStartedSince > notStartedMs) {
      return `node ${p.nodeId} has waited in NOT_STARTED for ${seconds(obs.at - p.notStartedSince)} without a start order (the management server that restarted it may have gone away): start it (ndb_mgm -e "${p.nodeId} start"), then resume`;
    }
  }
  if (obs.at - run.sentAt > stepMs) {
    const late = run.nodes.filter((p) => p.backAt === null);
    if (late.length > 0) {
      const now = late.map((p) => {
        const n = byId.get(p.nodeId);
        return `node ${p.nodeId} ${n ? `${n.status}${n.status === 'STARTING' ? ` (phase ${n.startPhase})` : ''}` : 'not seen'}`;
      });
      return `the step has not completed within ${seconds(stepMs)} of its restart: ${now.join(', ')}`;
    }
    if (unhealthy.length > 0) return `the step's nodes are STARTED again, but not their node groups within ${seconds(stepMs)} of its restart: ${unhealthy.join('; ')}`;
  }
  return null;
}
