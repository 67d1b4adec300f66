/**
 * What a data node does in each start phase (NDBCNTR's start protocol, as the NDB manual describes it), so the
 * restart panel says "copying data" rather than only "phase 5". `startphase` reports the last phase COMPLETED
 * (spec §8.2), so what runs now is the one after it.
 */
const NAMES: Record<number, string> = {
  0: 'allocating memory',
  1: 'connecting, starting heartbeats',
  2: 'checking the other nodes',
  3: 'setting up LQH and TC',
  4: 'redo log and local data',
  5: 'copying data from live nodes',
  6: 'defining node groups',
  7: 'arbitrator, background tasks',
  8: 'rebuilding indexes',
  9: 'resetting internal variables',
  100: 'API connections',
  101: 'event handover',
};

/** The phase a STARTING node is in now, from the last one it completed. */
export function runningPhase(lastCompleted: number): number {
  if (lastCompleted <= 0) return 1;
  if (lastCompleted < 8) return lastCompleted + 1;
  return 101;
}

export function phaseName(phase: number): string {
  return NAMES[phase] ?? `phase ${phase}`;
}

/** "phase 5: copying data from live nodes"; memory allocation comes before phase 1. */
export function currentPhaseText(status: string, lastCompleted: number): string {
  if (status !== 'STARTING') return status.replace(/_/g, ' ').toLowerCase();
  if (lastCompleted === 0) return `${phaseName(0)}, then phase 1`;
  const running = runningPhase(lastCompleted);
  return `phase ${running}: ${phaseName(running)}`;
}
