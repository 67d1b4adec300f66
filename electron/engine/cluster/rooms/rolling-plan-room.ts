import type { RollingPlanView } from '../../../contract/schemas/rolling-restart.js';
import type { TrackerInput } from '../tracker-input.js';
import type { Room } from './room.js';

/**
 * The rolling restart the engine conducts, as its host last published it (`rolling-plan` inputs, recorded), so the
 * snapshot, a reloaded page and a replay all show the plan, its steps and its log as they were.
 */
export class RollingPlanRoom implements Room {
  private current: RollingPlanView | null = null;

  input(input: Exclude<TrackerInput, { kind: 'event' }>): void {
    if (input.kind === 'rolling-plan') this.current = input.view;
  }

  view(): RollingPlanView | null {
    return this.current;
  }
}
