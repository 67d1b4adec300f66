import { MEMORY_RAISE_AT } from '../../../contract/page-safe/alert-kinds.js';
import type { AlertKind } from '../../../contract/schemas/events.js';

export interface MemoryLevel {
  kind: AlertKind;
  severity: 'warning' | 'critical';
  /** Raised when use reaches this… */
  raiseAt: number;
  /** …and over only once use has stayed below this for HOLD_MS. */
  clearBelow: number;
}

/** Highest first. Clearing 5 points lower keeps a node hovering at 90 % from raising a new alert every report. */
export const MEMORY_LEVELS: readonly MemoryLevel[] = [
  { kind: 'memory-critical', severity: 'critical', raiseAt: MEMORY_RAISE_AT['memory-critical'], clearBelow: 85 },
  { kind: 'memory-high', severity: 'warning', raiseAt: MEMORY_RAISE_AT['memory-high'], clearBelow: 75 },
];

/** Redo and undo log fill (the worst part), with the same marks and hysteresis as memory. */
export const LOG_FILL_LEVELS: readonly MemoryLevel[] = [
  { kind: 'log-fill-critical', severity: 'critical', raiseAt: 90, clearBelow: 85 },
  { kind: 'log-fill-high', severity: 'warning', raiseAt: 80, clearBelow: 75 },
];
export const HOLD_MS = 30_000;

interface State {
  level: MemoryLevel | null;
  /** When use first fell below the current level's clear mark, in the run of reports that stayed below it. */
  belowSince: number | null;
}

/**
 * Alert levels with hysteresis (memory's, or any list of the same shape), per node and memory or log kind: a level is reached at once, and left only after
 * use has been below its clear mark for a hold time. Returns the level that should be raised now (null: none).
 */
export class MemoryLevels {
  private readonly states = new Map<string, State>();

  constructor(
    private readonly holdMs = HOLD_MS,
    private readonly levels: readonly MemoryLevel[] = MEMORY_LEVELS,
  ) {}

  update(key: string, percent: number, at: number): MemoryLevel | null {
    const state = this.states.get(key) ?? { level: null, belowSince: null };
    this.states.set(key, state);
    const reached = this.levels.find((l) => percent >= l.raiseAt) ?? null;
    if (reached && (!state.level || reached.raiseAt >= state.level.raiseAt)) {
      state.level = reached;
      state.belowSince = null;
      return state.level;
    }
    if (!state.level) return null;
    if (percent >= state.level.clearBelow) {
      state.belowSince = null;
      return state.level;
    }
    state.belowSince ??= at;
    if (at - state.belowSince < this.holdMs) return state.level;
    // Held below long enough: step down to what the use still warrants (with the lower level's own clear mark).
    state.level = this.levels.find((l) => l.raiseAt < (state.level?.raiseAt ?? 0) && percent >= l.clearBelow) ?? null;
    state.belowSince = null;
    return state.level;
  }
}
