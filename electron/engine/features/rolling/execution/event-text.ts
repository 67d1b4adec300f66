import { checksLine } from '../../../../contract/page-safe/rolling-checks.js';
import type { RollEvent } from '../types.js';

export const nodes = (ids: readonly number[]): string => (ids.length === 1 ? `node ${ids[0]}` : `nodes ${ids.join(', ')}`);

export function duration(ms: number | null): string {
  if (ms === null) return 'unknown';
  const s = Math.round(ms / 1000);
  return s < 120 ? `${s} s` : `${Math.round(s / 60)} min`;
}

/** One event of a rolling restart in words: the CLI's lines and the engine's log say the same. */
export function eventText(e: RollEvent): string {
  switch (e.event) {
    case 'step':
      return `step ${e.step}/${e.of}: checking before restarting ${nodes(e.nodes)}`;
    case 'checked':
      return `step ${e.step}: checked: ${checksLine(e.checks)}`;
    case 'restarting':
      return `step ${e.step}: restart sent for ${nodes(e.nodes)}`;
    case 'note':
    case 'waiting':
      return `step ${e.step}: ${e.text}`;
    case 'started':
      return `step ${e.step}: ${nodes(e.nodes)} STARTED again after ${duration(e.durationMs)}`;
    case 'paused':
      return `pausing ${duration(e.pauseMs)} before step ${e.step + 1}`;
    case 'halted':
      return `HALTED at step ${e.step} (${e.code}): ${e.reason}`;
    case 'resumed':
      return `resuming at step ${e.step}`;
    case 'skipped':
      return `step ${e.step}: skipped ${nodes(e.nodes)}`;
    case 'done':
      return `done: restarted ${e.restarted.length > 0 ? nodes(e.restarted) : 'no node'}${e.skipped.length > 0 ? `, skipped ${nodes(e.skipped)}` : ''}`;
    case 'aborted':
      return e.text;
  }
}
