import { duration, eventText, nodes, type PlanEta, type RollEvent, type RollingPlan } from '../../engine/features/rolling/index.js';
import { printText } from '../format/terminal-text.js';
import { escapedJson } from '../../contract/page-safe/outside-text.js';

/** "1 step", "2 steps". */
export const counted = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

export interface PlanEvent {
  event: 'plan';
  id: string;
  order: RollingPlan['order'];
  pauseMs: number;
  steps: Array<{ step: number; nodes: number[]; etaMs: number | null }>;
  manual: string[];
  etaMs: number | null;
  /** What etaMs may be, given how little is timed (low = high once enough is); null when unknown. */
  etaRangeMs: PlanEta['range'];
  /** How many step or restart timings the ETA rests on. */
  etaBasis: number;
  etaSource: PlanEta['source'];
  /** Whether and where the critical alerts are checked before each step, in words. */
  alerts: string;
}

/** The `plan` event: every step with its ETA, the manual steps, and where the ETA comes from. */
export function planEvent(plan: RollingPlan, eta: PlanEta, alerts: string, fromStep = 0): PlanEvent {
  return {
    event: 'plan',
    id: plan.id,
    order: plan.order,
    pauseMs: plan.pauseMs,
    steps: plan.steps.map((ids, i) => ({ step: i + 1, nodes: ids, etaMs: i < fromStep ? null : eta.stepMs })),
    manual: plan.manual,
    etaMs: eta.totalMs,
    etaRangeMs: eta.range,
    etaBasis: eta.basis,
    etaSource: eta.source,
    alerts,
  };
}

/** "12 min to 20 min (from 1 step timed before)"; one figure once enough is timed; unknown said as such. */
function etaText(e: PlanEvent): string {
  const r = e.etaRangeMs;
  if (r === null) return 'not known until the first step is timed (no earlier restart seen)';
  const figure = r.lowMs === r.highMs ? duration(r.lowMs) : `${duration(r.lowMs)} to ${duration(r.highMs)}`;
  return `${figure} (from ${counted(e.etaBasis, 'step')} timed ${e.etaSource === 'ndbinfo' ? 'by restart_info' : 'before'})`;
}

function planText(e: PlanEvent): string {
  const steps = e.steps;
  const count = steps.reduce((n, s) => n + s.nodes.length, 0);
  const how = e.order === 'node-id' ? 'one node at a time' : 'one node of each node group per step, in parallel across node groups';
  const lines = [`Rolling restart of ${counted(count, 'data node')} in ${counted(steps.length, 'step')} (${how}):`];
  for (const s of steps) lines.push(`  step ${s.step}: ${nodes(s.nodes)}`);
  for (const m of e.manual) lines.push(`  manual: ${m}`);
  lines.push(`  ETA: ${etaText(e)}, pause ${duration(e.pauseMs)} between steps`);
  lines.push(`  alerts: ${e.alerts}`);
  return `${lines.join('\n')}\n`;
}

const HALT_HINT = '\n  continue with --resume, skip this step with --skip, or stop with --abort';

/** One line per event: JSON (each with its `event`) or words, server text escaped either way. */
export function printEvent(json: boolean, e: RollEvent | PlanEvent): void {
  if (json) process.stdout.write(`${escapedJson({ ...e, at: new Date().toISOString() })}\n`);
  else printText(process.stdout, e.event === 'plan' ? planText(e) : `${eventText(e)}${e.event === 'halted' ? HALT_HINT : ''}\n`);
}
