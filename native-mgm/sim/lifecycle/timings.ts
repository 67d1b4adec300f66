/**
 * How long each lifecycle step takes in sim milliseconds. Real restarts take minutes; these are shortened so a
 * rolling restart is watchable, and a test at high `speed` finishes quickly.
 */
export const TIMINGS = {
  shutdownLevel: 400,
  /** From the process going away until the restarted process connects again (NOT_STARTED). */
  processRestart: 1500,
  /** From a crash until the angel process has the node connected again. */
  angelRestart: 5000,
  /** STARTING with start phase 0 while memory is allocated. */
  memoryAllocation: 1000,
  phase: 600,
  /** Phase 5 of a node restart copies the data from a live node. */
  dataCopy: 4000,
  singleUserSwitch: 500,
  mgmdRestart: 2000,
} as const;

/** Start phases a node reports as completed (spec §8.2): 1..8, then the event handover phase 101. */
export const START_PHASES = [1, 2, 3, 4, 5, 6, 7, 8, 101] as const;

/** StartPhaseCompleted `starttype` values (spec §6.7). */
export const START_TYPE = { initialStart: 0, systemRestart: 1, nodeRestart: 2, initialNodeRestart: 3 } as const;

/** NDBStopCompleted / NDBStopForced `action` bits (spec §6.7). */
export const STOP_ACTION = { restart: 1, noStart: 2, initial: 4 } as const;
