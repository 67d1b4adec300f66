import type { ClusterState } from '../state/cluster-state.js';
import type { DataNode } from '../state/node-state.js';

/** Thrown inside a lifecycle when another one took the node over (a crash during a restart, say). */
export class Superseded extends Error {
  constructor() {
    super('lifecycle superseded');
  }
}

export interface NodeTask {
  /** Waits `simMs` and throws Superseded if the node was taken over meanwhile. */
  step(simMs: number): Promise<void>;
}

/** Takes the node over for a new lifecycle; any older lifecycle of the node stops at its next step. */
export function claimNode(cluster: ClusterState, node: DataNode): NodeTask {
  node.generation += 1;
  const generation = node.generation;
  return {
    async step(simMs: number) {
      await cluster.clock.sleep(simMs);
      if (node.generation !== generation) throw new Superseded();
    },
  };
}

/** Runs a lifecycle; being superseded is a normal end, not an error. */
export async function runTask(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    if (!(err instanceof Superseded)) throw err;
  }
}
