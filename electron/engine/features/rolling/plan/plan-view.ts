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
 * The executor's machine as pages and HTTP clients see it: each step's state, its hazards now (a step not done yet
 * is checked against the last observation, so the plan shows what would stop it before anything is sent), the
 * running step's nodes, the ETA and the log. Pure.
 */
export function planView(p: PlanViewParts): RollingPlanView {
  const m = p.machine;
  const steps = m.plan.steps.map((nodes, i): RollingStepView => {
    const state = stepState(m, i);
    const open = state === 'next' || state === 'pending';
    const run = state === 'running' && m.run ? m.run : null;
    return {
      step: i + 1,
      nodes: [...nodes],
      state,
      durationMs: m.results.find((r) => r.step === i)?.durationMs ?? null,
      hazards: open && p.obs ? stepHazards(m.plan, nodes, p.obs, 'before') : [],
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
