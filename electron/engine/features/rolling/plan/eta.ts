import type { RollingPlan } from '../types.js';

export type EtaSource = 'ndbinfo' | 'previous restarts' | 'none';

/** Steps (or restarts) timed before the ETA is one figure instead of a range. */
export const SETTLED_AFTER = 3;

/** How many of the newest timings the figure is taken from (the cluster as it is now, not a year of restarts). */
const RECENT = 5;

export interface Span {
  lowMs: number;
  highMs: number;
}

export interface PlanEta {
  /** Expected duration of one step (its nodes restart in parallel), null when nothing is known yet. */
  stepMs: number | null;
  /** All steps left and the time between them (the pause, the checks, the poll that sees a step done): the likely figure. */
  totalMs: number | null;
  /** What `totalMs` may be: widened while fewer than SETTLED_AFTER are timed, then the spread of the timings. */
  range: Span | null;
  /** How many step or restart timings the ETA rests on. */
  basis: number;
  source: EtaSource;
}

/** The time between two steps: as measured in this plan, else the pause and up to a quarter step for the checks. */
export interface GapTimes {
  /** Measured from a step's last node STARTED to the next step's restart sent, this plan's, oldest first. */
  measured: readonly number[];
  pauseMs: number;
}

/**
 * One step's length as a span: the fastest and slowest of the recent timings, widened while few are timed (±50 %
 * from one, ±25 % from two), because one restart says little about the next (a node's data, its redo, the load).
 */
export function stepSpan(timings: readonly number[]): { likelyMs: number; span: Span } | null {
  const recent = timings.slice(-RECENT);
  if (recent.length === 0) return null;
  const likelyMs = Math.round(recent.reduce((s, d) => s + d, 0) / recent.length);
  const margin = timings.length >= SETTLED_AFTER ? 0 : 0.5 / timings.length;
  return { likelyMs, span: { lowMs: Math.round(Math.min(...recent) * (1 - margin)), highMs: Math.round(Math.max(...recent) * (1 + margin)) } };
}

/** One gap between steps as a span: measured ones settle it; unmeasured, the pause and up to a quarter step more. */
export function gapSpan(gaps: GapTimes, step: Span): { likelyMs: number; span: Span } {
  if (gaps.measured.length > 0) {
    const recent = gaps.measured.slice(-RECENT);
    const likelyMs = Math.round(recent.reduce((s, d) => s + d, 0) / recent.length);
    return { likelyMs, span: { lowMs: Math.min(...recent), highMs: Math.max(...recent) } };
  }
  return { likelyMs: gaps.pauseMs, span: { lowMs: gaps.pauseMs, highMs: gaps.pauseMs + Math.round(step.highMs / 4) } };
}

/**
 * How long the plan should take: from ndbinfo's completed restarts of the plan's nodes where the engine has them,
 * else the steps ndbtop saw complete from their start (this plan's and earlier ones', the newest last; the engine's
 * host gives the restarts it observed whole when it timed no step yet), else unknown until a step completes. Never a
 * simulator constant: a real cluster's restart takes what its data takes. A range until SETTLED_AFTER are timed.
 */
export function planEta(plan: RollingPlan, history: readonly number[], ndbinfoSteps: readonly number[] = [], fromStep = 0, gaps: GapTimes = { measured: [], pauseMs: plan.pauseMs }): PlanEta {
  const steps = Math.max(0, plan.steps.length - fromStep);
  const timings = ndbinfoSteps.length > 0 ? ndbinfoSteps : history;
  const source: EtaSource = ndbinfoSteps.length > 0 ? 'ndbinfo' : history.length > 0 ? 'previous restarts' : 'none';
  const step = stepSpan(timings);
  if (!step) return { stepMs: null, totalMs: null, range: null, basis: 0, source };
  const gap = gapSpan(gaps, step.span);
  const between = Math.max(0, steps - 1);
  return {
    stepMs: step.likelyMs,
    totalMs: steps * step.likelyMs + between * gap.likelyMs,
    range: { lowMs: steps * step.span.lowMs + between * gap.span.lowMs, highMs: steps * step.span.highMs + between * gap.span.highMs },
    basis: timings.length,
    source,
  };
}
