import type { TrackerInput } from '../../../cluster/tracker-input.js';
import type { ClusterPort } from './ports.js';

type PlannedInput = Extract<TrackerInput, { kind: 'planned' }>;

/**
 * The engine's port for a conductor it hosts: every restart the plan sends is declared planned work first (the
 * `planned` tracker input, recorded like any other), so the alert rooms show it as progress rather than raise a
 * node-group warning per step; a restart that was never sent (refused) is withdrawn. A sent one ends when its node
 * is up again, whatever became of the reply.
 */
export function declaringPort(port: ClusterPort, declare: (input: PlannedInput) => void, by = 'rolling restart', now: () => number = Date.now): ClusterPort {
  return {
    observe: () => port.observe(),
    async restart(nodeIds, bounds) {
      declare({ kind: 'planned', t: now(), nodeIds: [...nodeIds], planned: true, by });
      const outcome = await port.restart(nodeIds, bounds);
      if (outcome.kind === 'refused') declare({ kind: 'planned', t: now(), nodeIds: [...nodeIds], planned: false, by });
      return outcome;
    },
  };
}
