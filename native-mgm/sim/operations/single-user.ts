import type { ClusterState } from '../state/cluster-state.js';
import { TIMINGS } from '../lifecycle/timings.js';
import { MGM_ERROR, type OperationResult } from './mgm-errors.js';
import { makeEvent } from '../state/sim-event.js';

/** SingleUser `type` (spec §6.7). */
const ENTERING = 0;
const ENTERED = 1;
const EXITING = 2;

/** Enter single user mode for API node `apiId` (spec §8.3); resolves once the cluster is in it. */
export async function enterSingleUser(cluster: ClusterState, apiId: number): Promise<OperationResult> {
  if (!cluster.api.has(apiId)) return { ok: false, code: MGM_ERROR.notApiNode };
  const master = cluster.master();
  if (!master) return { ok: false, code: MGM_ERROR.noContactWithDbNodes };
  cluster.emit(makeEvent('SingleUser', master.id, { type: ENTERING, node_id: apiId }));
  await cluster.clock.sleep(TIMINGS.singleUserSwitch);
  cluster.singleUserApi = apiId;
  cluster.emit(makeEvent('SingleUser', (cluster.master() ?? master).id, { type: ENTERED, node_id: apiId }));
  return { ok: true, count: 0, disconnect: false };
}

export function exitSingleUser(cluster: ClusterState): OperationResult {
  const apiId = cluster.singleUserApi;
  const master = cluster.master();
  if (apiId !== null && master) cluster.emit(makeEvent('SingleUser', master.id, { type: EXITING, node_id: apiId }));
  cluster.singleUserApi = null;
  return { ok: true, count: 0, disconnect: false };
}
