import { nodes } from './event-text.js';
import type { RestartOrder, RollEvent } from '../types.js';

/** A rolling restart as a run, whoever records it (the engine hosting it, or a recording ndbtop the CLI marks). */
export function rollingRun(plan: { id: string; order: RestartOrder }): { name: string; tags: Record<string, string> } {
  return { name: `rolling restart ${plan.id.slice(0, 8)}`, tags: { kind: 'rolling-restart', order: plan.order } };
}

/** What a conductor's event marks on its run: each step a phase, a halt a phase, the end a stop; null for the rest. */
export function runMark(e: RollEvent): { op: 'phase'; name: string } | { op: 'stop' } | null {
  if (e.event === 'restarting') return { op: 'phase', name: `step ${e.step}: ${nodes(e.nodes)}` };
  if (e.event === 'halted') return { op: 'phase', name: `halted at step ${e.step}` };
  if (e.event === 'done' || e.event === 'aborted') return { op: 'stop' };
  return null;
}
