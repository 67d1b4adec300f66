import type { ClusterState } from '../state/cluster-state.js';
import { makeEvent } from '../state/sim-event.js';

/** ArbitState result codes (spec §6.7, the low 16 bits; the high 16 bits, an internal state number, are left 0). */
const ARBIT_STATE = { started: 31, failed: 32 } as const;

/**
 * Tests and scenarios: the arbitrator goes away (its process stops answering the president): the president reports
 * ArbitState "arbitrator failed" and the cluster runs without one until `selectArbitrator`.
 */
export function loseArbitrator(cluster: ClusterState): void {
  const president = cluster.master();
  const was = cluster.arbitrator();
  cluster.arbitratorLost = true;
  if (president) cluster.emit(makeEvent('ArbitState', president.id, { code: ARBIT_STATE.failed, arbit_node: was, ticket_0: 0, ticket_1: 0 }));
}

/** A new arbitrator is chosen (the first management server running): ArbitState "arbitrator started". */
export function selectArbitrator(cluster: ClusterState): void {
  cluster.arbitratorLost = false;
  const president = cluster.master();
  if (president) cluster.emit(makeEvent('ArbitState', president.id, { code: ARBIT_STATE.started, arbit_node: cluster.arbitrator(), ticket_0: 1, ticket_1: 1 }));
}
