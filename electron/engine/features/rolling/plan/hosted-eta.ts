import { baselineFor, phaseProgress, restartCompleted, type RestartTimes } from '../../../../contract/page-safe/restart-phases.js';
import type { ClusterSnapshot } from '../../../../contract/schemas/snapshot.js';
import { planEta, type PlanEta } from './eta.js';
import type { RollMachine } from '../types.js';

export interface HostedEta {
  eta: PlanEta;
  finishAt: number | null;
}

const OVER = new Set(['halted', 'done', 'aborted']);

/** Each data node's latest completed restart as restart_info timed it (the one before, while a new one runs). */
function completedRestarts(snap: ClusterSnapshot): Map<number, RestartTimes> {
  const out = new Map<number, RestartTimes>();
  if (!snap.ndbinfo) return out;
  for (const n of snap.ndbinfoNodes ?? []) {
    const latest = n.restart && restartCompleted(n.restart) ? n.restart : n.previousRestart && restartCompleted(n.previousRestart) ? n.previousRestart : null;
    if (latest) out.set(n.nodeId, latest);
  }
  return out;
}

/**
 * Before ndbtop timed a step of its own: the restarts it saw complete (a step's nodes restart together, so a step
 * takes about one node's restart), oldest first.
 */
function observedRestarts(snap: ClusterSnapshot): number[] {
  return (snap.rollingRestart?.restarts ?? []).flatMap((r) => (r.to !== null && !r.underWayAtConnect ? [r.to - r.from] : []));
}

/** Seconds left of one restarting node by its phases and their baseline; null where ndbinfo cannot tell. */
function nodeSecondsLeft(nodeId: number, snap: ClusterSnapshot, roundNodes: readonly number[], completed: Map<number, RestartTimes>, now: number): number | null {
  const figures = snap.ndbinfoNodes?.find((n) => n.nodeId === nodeId);
  const restart = figures?.restart;
  if (!figures || !restart?.inProgress) return null;
  const others = roundNodes.map((id) => ({ nodeId: id, restart: completed.get(id) ?? null }));
  const { baselines, from } = baselineFor(nodeId, figures.previousRestart, others);
  const startedAt = snap.rollingRestart?.restarts.find((r) => r.nodeId === nodeId && r.to === null)?.from ?? null;
  return phaseProgress(restart, now, startedAt, baselines, from).remainingSecs;
}

/**
 * The plan's ETA as the engine shows it: a step's length from restart_info's completed restarts of the plan's
 * nodes where ndbinfo has them (else the steps ndbtop timed), and the running step's time left from its nodes'
 * phases against their baselines (else the step's length less the time it has run), then the steps and pauses left.
 */
export function hostedEta(m: RollMachine, snap: ClusterSnapshot, history: readonly number[], now: number): HostedEta {
  const planned = m.plan.steps.flat();
  const completed = completedRestarts(snap);
  const totals = planned.flatMap((id) => {
    const r = completed.get(id);
    return r ? [r.totalSecs * 1000] : [];
  });
  const ndbinfoStepMs = totals.length > 0 ? Math.round(totals.reduce((s, t) => s + t, 0) / totals.length) : null;
  const eta = planEta(m.plan, history.length > 0 ? history : observedRestarts(snap), ndbinfoStepMs, m.results.length);
  if (OVER.has(m.phase.kind)) return { eta, finishAt: null };
  const stepsLeft = m.plan.steps.length - m.results.length;
  const running = m.run !== null && !m.results.some((r) => r.step === m.step);
  let current = 0;
  if (running && m.run) {
    const run = m.run;
    const roundNodes = m.results.filter((r) => r.outcome === 'restarted').flatMap((r) => r.nodes);
    const left = run.nodes.map((p) => {
      if (p.backAt !== null) return 0;
      const byPhases = nodeSecondsLeft(p.nodeId, snap, roundNodes, completed, now);
      if (byPhases !== null) return byPhases * 1000;
      return eta.stepMs === null ? null : Math.max(0, eta.stepMs - (now - run.sentAt));
    });
    if (left.some((l) => l === null)) return { eta, finishAt: null };
    current = Math.max(0, ...(left as number[]));
  }
  const later = running ? stepsLeft - 1 : stepsLeft;
  if (later > 0 && eta.stepMs === null) return { eta, finishAt: null };
  const pauseLeft = m.phase.kind === 'pausing' ? Math.max(0, m.phase.until - now) : 0;
  const pauses = Math.max(0, stepsLeft - 1) * m.plan.pauseMs;
  return { eta, finishAt: Math.round(now + current + later * (eta.stepMs ?? 0) + pauses + pauseLeft) };
}
