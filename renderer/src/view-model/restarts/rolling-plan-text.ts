import type { RollingPlanView, RollingStepView } from '../../contract.js';
import { formatClock, formatDuration, formatNodeIds } from '../format.js';

/**
 * "waiting for node 2 to be STARTED again before step 2" ("… for 24 of step 1's nodes …" past four): said once, on
 * the step after the running one, while the running step's nodes are not all back; null otherwise.
 */
export function stepWait(steps: readonly RollingStepView[], step: RollingStepView): string | null {
  const running = steps.find((s) => s.state === 'running');
  if (!running || step.step !== running.step + 1) return null;
  const out = running.progress.filter((p) => p.backAt === null).map((p) => p.nodeId);
  if (out.length === 0) return null;
  // The running step's line lists its nodes already: a long list is counted, not written out again.
  const who = out.length <= 4 ? formatNodeIds(out) : `${out.length} of step ${running.step}'s nodes`;
  return `waiting for ${who} to be STARTED again before step ${step.step}`;
}

/** When the plan finishes, as a sentence: "02:41:10 (in 12 min), from restart_info phase times", or why it is not known yet. */
export function etaText(eta: RollingPlanView['eta'], now: number): string {
  const { finishAt, stepMs, source } = eta;
  if (finishAt === null && stepMs === null) return source === 'none' ? 'not known until the first step is timed' : 'not known yet';
  const from = source === 'none' ? '' : `, from ${source === 'ndbinfo' ? 'restart_info phase times' : 'the steps timed before'}`;
  const when = finishAt !== null ? `${formatClock(finishAt)} (${finishAt > now ? `in ${formatDuration(finishAt - now)}` : 'due'})` : `${formatDuration(stepMs ?? 0)} a step`;
  return `${when}${from}`;
}
