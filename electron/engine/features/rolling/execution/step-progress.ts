import { nodes } from './event-text.js';
import type { NodeProgress, Observation, ObservedNode, RollingPlan, RollMachine, StepRun } from '../types.js';

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

/**
 * Every node of the run went down and is STARTED again (and ndbinfo, where there is one, agrees). A reply still to
 * come does not hold it back: the status has shown the restart happen, and a reply that never comes must not hold
 * the plan until the request's deadline.
 */
export function runBack(run: StepRun, obs: Observation): boolean {
  if (!obs.connected || run.send === 'refused') return false;
  const done = obs.restartCompleted;
  return run.nodes.every((p) => p.backAt !== null && (done === null || done.includes(p.nodeId)));
}

const seconds = (ms: number): string => `${Math.round(ms / 1000)} s`;

/** Why a run is given up, and which kind of halt that is. */
export interface Overdue {
  code: 'timeout' | 'unreachable';
  reason: string;
}

/** Where a node of the run is now, in words (with its start phase while it starts). */
function whereNow(p: NodeProgress, seen: ObservedNode | undefined): string {
  if (!seen) return `node ${p.nodeId} not seen`;
  const phase = seen.status === 'STARTING' ? ` (phase ${seen.startPhase})` : '';
  const still = seen.status === 'STARTED' && !p.left ? ' with no sign it restarted' : '';
  return `node ${p.nodeId} ${seen.status}${phase}${still}`;
}

/**
 * Why the run cannot be expected to complete any more, judged at `obs.at`; null while it still can. `unhealthy`:
 * the step's node groups not whole again though its nodes are back (`unhealthyGroups`), overdue like a late node.
 * A deadline that passes while the management server cannot be reached is said as that: what the nodes did since
 * cannot be told, so no word about them is given as if it had been seen.
 */
export function runOverdue(plan: RollingPlan, run: StepRun, obs: Observation, unhealthy: readonly string[] = []): Overdue | null {
  const { leaveMs, notStartedMs, stepMs } = plan.limits;
  const answered = run.answeredAt;
  const stayed = run.nodes.filter((p) => !p.left).map((p) => p.nodeId);
  const leaveOver = answered !== null && obs.at - answered > leaveMs && stayed.length > 0;
  const stepOver = obs.at - run.sentAt > stepMs;
  if (!obs.connected) {
    const passed = [leaveOver ? `the leave timeout (${seconds(leaveMs)})` : null, stepOver ? `the step timeout (${seconds(stepMs)})` : null].filter((d) => d !== null);
    if (passed.length === 0) return null;
    const unsure = run.nodes.filter((p) => p.backAt === null).map((p) => p.nodeId);
    const what = unsure.length > 0 ? `whether ${nodes(unsure)} restarted and came back` : 'whether the node groups of the step are whole again';
    return { code: 'unreachable', reason: `could not reach the management server (${obs.error ?? 'no answer'}) when ${passed.join(' and ')} passed: ${what} cannot be told` };
  }
  const noReply =
    run.send === 'in-flight'
      ? '; the management server never answered the restart (the request is given up)'
      : run.send === 'lost'
        ? `; the reply to the restart was lost (${run.lostError ?? 'connection ended'})`
        : '';
  if (leaveOver) {
    const why = run.send === 'lost' ? `the reply to its restart was lost (${run.lostError ?? 'connection ended'}), and it is not sent again` : 'the management server answered its restart with Ok';
    return { code: 'timeout', reason: `${nodes(stayed)} never left STARTED within ${seconds(leaveMs)}, yet ${why}: the restart did not happen as expected` };
  }
  for (const p of run.nodes) {
    if (p.notStartedSince !== null && obs.at - p.notStartedSince > notStartedMs) {
      return {
        code: 'timeout',
        reason: `node ${p.nodeId} has waited in NOT_STARTED for ${seconds(obs.at - p.notStartedSince)} without a start order (the management server that restarted it may have gone away): start it (ndb_mgm -e "${p.nodeId} start"), then resume`,
      };
    }
  }
  if (stepOver) {
    const byId = new Map(obs.nodes.map((n) => [n.nodeId, n]));
    const late = run.nodes.filter((p) => p.backAt === null);
    if (late.length > 0) return { code: 'timeout', reason: `the step has not completed within ${seconds(stepMs)} of its restart: ${late.map((p) => whereNow(p, byId.get(p.nodeId))).join(', ')}${noReply}` };
    if (unhealthy.length > 0) return { code: 'timeout', reason: `the step's nodes are STARTED again, but not their node groups within ${seconds(stepMs)} of its restart: ${unhealthy.join('; ')}${noReply}` };
  }
  return null;
}

/** How often the CLI's plan says what it waits for when nothing else happened. */
export const PROGRESS_EVERY_MS = 5000;

/**
 * What a plan that runs or pauses waits for now, in words, with the deadline that bounds the wait; null when it
 * waits for nothing on the cluster. The CLI says it every few seconds, so a long wait is never a silent one.
 */
export function waitingFor(m: RollMachine, obs: Observation): string | null {
  const { leaveMs, stepMs } = m.plan.limits;
  if (m.phase.kind === 'pausing') return `pausing: step ${m.step + 1} begins in ${seconds(Math.max(0, m.phase.until - obs.at))}`;
  const run = m.run;
  if (!run || run.step !== m.step || (m.phase.kind !== 'restarting' && m.phase.kind !== 'waiting')) return null;
  const stepLeft = `${seconds(obs.at - run.sentAt)} of the step timeout (${seconds(stepMs)})`;
  if (!obs.connected) return `waiting for the management server, which could not be reached (${obs.error ?? 'no answer'}): ${stepLeft}`;
  const byId = new Map(obs.nodes.map((n) => [n.nodeId, n]));
  const late = run.nodes.filter((p) => p.backAt === null);
  const nodesNow =
    late.length > 0
      ? `for ${nodes(late.map((p) => p.nodeId))} to go down and come back STARTED (now ${late.map((p) => whereNow(p, byId.get(p.nodeId))).join(', ')})`
      : `for the node groups of ${nodes(run.nodes.map((p) => p.nodeId))} to be whole again`;
  const reply = run.send === 'in-flight' ? ` and for the reply to the restart (none yet, ${seconds(obs.at - run.sentAt)} after sending it)` : '';
  const answered = run.answeredAt;
  const stayed = run.nodes.filter((p) => !p.left);
  const leave = answered !== null && stayed.length > 0 ? `, ${seconds(obs.at - answered)} of the leave timeout (${seconds(leaveMs)})` : '';
  return `waiting ${nodesNow}${reply}: ${stepLeft}${leave}`;
}
