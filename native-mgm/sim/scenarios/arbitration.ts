import type { ClusterModel } from '../cluster-model.js';
import type { DataNode } from '../state/node-state.js';
import { dataNodeParam } from './node-params.js';
import { allStarted, waitUntil, type Scenario } from './scenario.js';

export const ARBITRATION = { healthyMs: 20_000, downMs: 8_000 } as const;

/**
 * Two sites, each with the same share of every node group: the first half of each group's members (by id) on one,
 * the rest on the other. A split between them leaves each side exactly half the nodes and all node groups, the one
 * case only the arbitrator can settle (a split that took whole node groups away loses on a missing group, 44, and
 * needs no arbitrator).
 */
export function sites(model: ClusterModel): [DataNode[], DataNode[]] {
  const halves: [DataNode[], DataNode[]] = [[], []];
  const groups = new Set([...model.data.values()].map((n) => n.nodeGroup));
  for (const g of groups) {
    const members = model.nodeGroupMembers(g).sort((a, b) => a.id - b.id);
    members.forEach((n, i) => halves[i < members.length / 2 ? 0 : 1].push(n));
  }
  return halves;
}

/** A network split between two sites; the arbitrator keeps one side, the other shuts down and restarts (lifecycle/partition.ts). */
export const arbitration: Scenario = {
  name: 'arbitration',
  description: 'steady load; the network splits two sites apart, the arbitrator lets one side go on, the other shuts down and restarts',
  requires: (model) => (model.replicas % 2 === 0 ? null : 'the arbitration scenario needs an even NoOfReplicas (each node group split evenly between two sites)'),
  async run({ model, clock }) {
    model.setLoad('steady');
    for (;;) {
      await waitUntil(clock, () => allStarted(model));
      await clock.sleep(ARBITRATION.healthyMs);
      const halves = sites(model);
      await model.splitNetwork(halves, { heartbeatIntervalMs: dataNodeParam(model, halves[0][0]!.id, 'HeartbeatIntervalDbDb'), downMs: ARBITRATION.downMs });
      await waitUntil(clock, () => allStarted(model));
    }
  },
};
