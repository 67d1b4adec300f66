import type { NdbFacts } from '../types.js';

/** NDB facts every check passes on at `at`: no backup, redo 10 % on every node, a global checkpoint just done, arbitrator node 1. */
export function passingNdb(at: number, nodeIds: readonly number[] = [2, 3, 4, 5]): NdbFacts {
  return {
    backup: { known: true, value: null },
    redo: { known: true, value: nodeIds.map((nodeId) => ({ nodeId, percent: 10, at })) },
    gcp: { known: true, value: { gci: 7, completedAt: at, watchedSince: at - 60_000 } },
    arbitrator: { known: true, value: { nodeId: 1, how: 'test' } },
  };
}
