import type { RollingPlanView, RollingStepView } from '../../../../contract/schemas/rolling-restart.js';
import { stepHazards } from './safety.js';
import type { PlanEta } from './eta.js';
import type { Observation, RollMachine } from '../types.js';

export interface PlanViewParts {
  machine: RollMachine;
  /** Not started yet: shown as `planned`, the executor still idle. */
  started: boolean;
  /** The cluster as last observed, for each step's hazards; null before the first observation. */
  obs: Observation | null;
  eta: PlanEta;
  finishAt: number | null;
  log: RollingPlanView['log'];
  runId: string | null;
  at: number;
}

function stepState(m: RollMachine, i: number): RollingStepView['state'] {
  const result = m.results.find((r) => r.step === i);
  if (result) return result.outcome === 'skipped' ? 'skipped' : 'done';
  if (i !== m.step) return 'pending';
  return m.run !== null ? 'running' : 'next';
}

/**
 * The observation with the running step's nodes STARTED again: a later step is checked against the cluster as it will
 * be once this step is done. The running step's own restarts are not what would halt it (its partners are
 * STARTING because this step restarts them); they are the wait the page shows once, from the running step's progress.
 */
function afterRunningStep(obs: Observation, run: RollMachine['run']): Observation {
  if (!run) return obs;
  const running = new Set(run.nodes.map((n) => n.nodeId));
  return { ...obs, nodes: obs.nodes.map((n) => (running.has(n.nodeId) ? { ...n, status: 'STARTED' as const } : n)) };
}

/**
 * The executor's machine as pages and HTTP clients see it: each step's state, its hazards now (a step not done yet
 * is checked against the last observation with the running step's nodes back, so the plan shows what would stop it
 * before anything is sent, not the running step's own restarts once per partner), the running step's nodes, the ETA
 * and the log. Pure.
 */
export function planView(p: PlanViewParts): RollingPlanView {
  const m = p.machine;
  const later = p.obs && afterRunningStep(p.obs, m.run);
  const steps = m.plan.steps.map((nodes, i): RollingStepView => {
    const state = stepState(m, i);
    const open = state === 'next' || state === 'pending';
    const run = state === 'running' && m.run ? m.run : null;
    return {
      step: i + 1,
      nodes: [...nodes],
      state,
      durationMs: m.results.find((r) => r.step === i)?.durationMs ?? null,
      hazards: open && later ? stepHazards(m.plan, nodes, later, 'before') : [],
      progress: run ? run.nodes.map((n) => ({ nodeId: n.nodeId, left: n.left, backAt: n.backAt })) : [],
    };
  });
  const phase = m.phase;
  return {
    planId: m.plan.id,
    createdAt: m.plan.createdAt,
    order: m.plan.order,
    pauseMs: m.plan.pauseMs,
    state: !p.started && phase.kind === 'idle' ? 'planned' : phase.kind === 'idle' ? 'checking' : phase.kind,
    halt: phase.kind === 'halted' ? { code: phase.code, reason: phase.reason } : null,
    currentStep: Math.min(m.step, m.plan.steps.length) + 1,
    steps,
    manual: [...m.plan.manual],
    eta: { stepMs: p.eta.stepMs, finishAt: p.finishAt, source: p.eta.source },
    log: p.log,
    runId: p.runId,
    updatedAt: p.at,
  };
}
