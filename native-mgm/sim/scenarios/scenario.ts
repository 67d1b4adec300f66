import type { ClusterModel } from '../cluster-model.js';
import type { RunMarks } from '../run-marks.js';
import type { SimClock } from '../state/sim-clock.js';

/** What a scenario may drive: the model, sim time, and the management servers themselves. */
export interface ScenarioContext {
  model: ClusterModel;
  clock: SimClock;
  /** Where benchmark drivers mark their runs (nothing happens when no marker is attached). */
  marks: RunMarks;
  stopMgmd(nodeId: number): Promise<void>;
  startMgmd(nodeId: number): Promise<void>;
}

export interface Scenario {
  name: string;
  description: string;
  /** Checked before the servers start, so a misfit topology fails startSimulator at once. */
  requires?: (model: ClusterModel) => string | null;
  /** Runs until the clock is disposed (its sleeps then never resolve). */
  run(ctx: ScenarioContext): Promise<void>;
}

const POLL_MS = 200;

/** Waits in sim time until `condition` holds. */
export async function waitUntil(clock: SimClock, condition: () => boolean): Promise<void> {
  while (!condition()) await clock.sleep(POLL_MS);
}

/** Whether every data node is STARTED: scenarios only disturb a healthy cluster. */
export function allStarted(model: ClusterModel): boolean {
  return [...model.data.values()].every((n) => n.status === 'STARTED');
}

/**
 * Disturbs each data node in turn, forever: waits for a healthy cluster, pauses, acts on one node, and waits
 * for that node to be STARTED again before the next. One node at a time never takes a node group down.
 */
export async function eachDataNodeInTurn(ctx: ScenarioContext, pauseMs: number, disturb: (id: number) => unknown): Promise<void> {
  const { model, clock } = ctx;
  for (;;) {
    for (const id of [...model.data.keys()]) {
      await waitUntil(clock, () => allStarted(model));
      await clock.sleep(pauseMs);
      await disturb(id);
      await waitUntil(clock, () => model.dataNode(id).status === 'STARTED');
    }
  }
}

/** The data node after `previous` in id order that is not the master (the master's DIH is what judges the others). */
function nextNonMaster(model: ClusterModel, previous: number): number | undefined {
  const master = model.master()?.id;
  const ids = [...model.data.keys()].filter((id) => id !== master).sort((a, b) => a - b);
  return ids.find((id) => id > previous) ?? ids[0];
}

/**
 * Disturbs each data node but the master in turn, forever: waits for a healthy cluster, pauses, and acts on the next
 * node, waiting for `disturb` to finish before the next round.
 */
export async function eachNonMasterInTurn(ctx: ScenarioContext, pauseMs: number, disturb: (id: number) => Promise<unknown>): Promise<void> {
  const { model, clock } = ctx;
  let previous = 0;
  for (;;) {
    await waitUntil(clock, () => allStarted(model));
    await clock.sleep(pauseMs);
    const id = nextNonMaster(model, previous);
    if (id === undefined) continue;
    previous = id;
    await disturb(id);
  }
}
