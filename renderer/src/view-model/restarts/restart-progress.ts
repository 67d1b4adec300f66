import type { RestartProgress } from '../../contract.js';

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
  /** "12 s", or "≥ 12 s (under way when ndbtop connected)" when the start began before ndbtop saw it. */
  elapsedText: string;
  estimatedMsLeft: number | null;
  label: string;
}

export function restartProgress(restart: RestartProgress, startPhase: number, now: number, duration: (ms: number) => string): RestartProgressView {
  const elapsedMs = Math.max(0, now - restart.startedAt);
  const phase = Math.max(restart.phase, startPhase);
  const step = phaseStep(phase);
  const label = phase === 0 ? 'allocating memory' : phase > 8 ? `phase ${phase} (handover)` : `phase ${phase} of ${START_STEPS}`;
  return {
    phase,
    step,
    steps: START_STEPS,
    fraction: step / START_STEPS,
    elapsedMs,
    elapsedText: restart.underWayAtConnect ? `≥ ${duration(elapsedMs)} (under way when ndbtop connected)` : duration(elapsedMs),
    estimatedMsLeft: restart.estimatedMsLeft,
    label,
  };
}
