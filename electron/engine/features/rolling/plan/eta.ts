import type { RollingPlan } from '../types.js';

export type EtaSource = 'ndbinfo' | 'previous restarts' | 'none';

export interface PlanEta {
  /** Expected duration of one step (its nodes restart in parallel), null when nothing is known yet. */
  stepMs: number | null;
  /** All steps and the pauses between them. */
  totalMs: number | null;
  source: EtaSource;
}

/**
 * How long the plan should take: from ndbinfo's phase baselines where the engine has them, else the mean of the
 * steps ndbtop saw complete before (this plan's and earlier ones', the newest last; the engine's host gives the
 * restarts it observed when it timed no step yet), else unknown until a step completes. Never a simulator constant:
 * a real cluster's restart takes what its data takes.
 */
export function planEta(plan: RollingPlan, history: readonly number[], ndbinfoStepMs: number | null = null, fromStep = 0): PlanEta {
  const steps = Math.max(0, plan.steps.length - fromStep);
  const recent = history.slice(-5);
  const stepMs = ndbinfoStepMs ?? (recent.length > 0 ? Math.round(recent.reduce((s, d) => s + d, 0) / recent.length) : null);
  const source: EtaSource = ndbinfoStepMs !== null ? 'ndbinfo' : stepMs !== null ? 'previous restarts' : 'none';
  return { stepMs, totalMs: stepMs === null ? null : steps * stepMs + Math.max(0, steps - 1) * plan.pauseMs, source };
}
