import type { RestartProgress } from '../contract.js';

/**
 * Start phases counted for progress: 1..8 run in order, then the event handover phase (101, or 100/9 in some
 * versions) is the last step (spec §8.2). Numbers are not contiguous, so progress is by step, not by number.
 */
export const START_STEPS = 9;

export function phaseStep(phase: number): number {
  if (phase <= 0) return 0;
  if (phase <= 8) return phase;
  return START_STEPS;
}

export interface RestartProgressView {
  /** Last completed start phase as reported. */
  phase: number;
  step: number;
  steps: number;
  /** 0..1 */
  fraction: number;
  elapsedMs: number;
  estimatedMsLeft: number | null;
  label: string;
}

export function restartProgress(restart: RestartProgress, startPhase: number, now: number): RestartProgressView {
  const phase = Math.max(restart.phase, startPhase);
  const step = phaseStep(phase);
  const label = phase === 0 ? 'allocating memory' : phase > 8 ? `phase ${phase} (handover)` : `phase ${phase} of ${START_STEPS}`;
  return {
    phase,
    step,
    steps: START_STEPS,
    fraction: step / START_STEPS,
    elapsedMs: Math.max(0, now - restart.startedAt),
    estimatedMsLeft: restart.estimatedMsLeft,
    label,
  };
}
