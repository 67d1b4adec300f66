import type { RollingPlanView, RollingStepView } from '../../../../contract/schemas/rolling-restart.js';
import { dataNodesText } from '../cluster-identity.js';
import type { HostedEta } from './hosted-eta.js';
import { stepHazards } from './safety.js';
import { checksOf, ndbChecks } from './ndb-checks.js';
import type { PlanEta } from './eta.js';
import type { Observation, RollMachine } from '../types.js';

export interface PlanViewParts {
  machine: RollMachine;
  /** Not started yet: shown as `planned`, the executor still idle. */
  started: boolean;
  /** The cluster as last observed, for each step's hazards; null before the first observation. */
  obs: Observation | null;
  eta: PlanEta;
  finish: HostedEta['finish'];
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

const ACTIVE = new Set(['checking', 'restarting', 'waiting', 'pausing']);

/** The nodes of the step under way (or just back) that are not STARTED again yet: what the next step waits for. */
function settling(m: RollMachine, obs: Observation | null): number[] {
  if (!obs || !m.run || !ACTIVE.has(m.phase.kind)) return [];
  const ids = new Set(m.run.nodes.map((p) => p.nodeId));
  return obs.nodes.filter((n) => ids.has(n.nodeId) && n.status !== 'STARTED').map((n) => n.nodeId);
}

/**
 * What would stop an open step now. While a step is under way, its own nodes coming back are what the next step
 * waits for, said once, and the next step is checked as if they were back (anything else is still a hazard); the
 * steps after it are checked when their turn comes, not listed now. The NDB checks (`ndb-checks.ts`) are the next
 * step's: each with its figure, a halting one among the hazards, a waiting one as the step's wait.
 */
function openCheck(m: RollMachine, i: number, state: RollingStepView['state'], obs: Observation | null, started: boolean): Pick<RollingStepView, 'hazards' | 'waiting' | 'checks'> {
  if (!obs || (state !== 'next' && state !== 'pending')) return { hazards: [], waiting: null, checks: [] };
  const upNext = m.run !== null && m.run.step === m.step && !m.results.some((r) => r.step === m.step) ? m.step + 1 : m.step;
  if (started && ACTIVE.has(m.phase.kind) && i !== upNext) return { hazards: [], waiting: null, checks: [] };
  const nodes = m.plan.steps[i] ?? [];
  const back = settling(m, obs);
  // While the running step's nodes come back their figures are not all read again: the checks wait for their turn.
  const checks = i === upNext && obs.connected && back.length === 0 ? ndbChecks(m.plan, nodes, obs) : [];
  const ndbHazards = checks.filter((c) => c.verdict === 'halt').map((c) => c.text);
  const ndbWait = checks.filter((c) => c.verdict === 'wait').map((c) => c.text);
  if (back.length === 0) return { hazards: [...stepHazards(m.plan, nodes, obs, 'before'), ...ndbHazards], waiting: ndbWait.length > 0 ? ndbWait.join('; ') : null, checks };
  const assumed: Observation = { ...obs, nodes: obs.nodes.map((n) => (back.includes(n.nodeId) ? { ...n, status: 'STARTED' as const } : n)) };
  return { hazards: stepHazards(m.plan, nodes, assumed, 'before'), waiting: `waiting for ${dataNodesText(back)} to finish starting before step ${i + 1}`, checks };
}

/**
 * The executor's machine as pages and HTTP clients see it: each step's state, its hazards now (the next step is
 * checked against the last observation, so the plan shows what would stop it before anything is sent), the
 * running step's nodes, the ETA and the log. Pure.
 */
export function planView(p: PlanViewParts): RollingPlanView {
  const m = p.machine;
  const steps = m.plan.steps.map((nodes, i): RollingStepView => {
    const state = stepState(m, i);
    const run = state === 'running' && m.run ? m.run : null;
    return {
      step: i + 1,
      nodes: [...nodes],
      state,
      durationMs: m.results.find((r) => r.step === i)?.durationMs ?? null,
      ...openCheck(m, i, state, p.obs, p.started),
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
    checks: checksOf(m.plan),
    eta: { stepMs: p.eta.stepMs, finishAt: p.finish?.at ?? null, finishRange: p.finish ? { from: p.finish.from, to: p.finish.to } : null, basis: p.eta.basis, source: p.eta.source },
    log: p.log,
    runId: p.runId,
    updatedAt: p.at,
  };
}
