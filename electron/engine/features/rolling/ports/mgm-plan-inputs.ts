import type { MgmClient } from '../../../../../native-mgm/client/mgm-client.js';
import type { CallOptions } from '../../../../../native-mgm/index.js';
import type { GroupMember } from '../../../cluster/node-groups.js';
import { ConfigState } from '../../../facts/config/config-state.js';
import { clusterIdentity, type ClusterIdentity } from '../cluster-identity.js';
import { arbitrationCandidates } from './snapshot-facts.js';

export interface PlanInputs {
  dataNodes: GroupMember[];
  mgmNodeIds: number[];
  replicas: number | null;
  /** Whose plan it is: the state file is this cluster's. */
  cluster: ClusterIdentity;
  /** The configuration's arbitrator candidates (ArbitrationRank 1 or 2), for the arbitrator check. */
  arbitration: Array<{ nodeId: number; rank: number }>;
}

/** Connection sections of node 255 only (none exists): a 255-node cluster's full configuration has ~26,000. */
const NO_LINKS = 255;

/**
 * What a plan is made from, read over the management protocol: `get status` for the nodes and their node groups,
 * `get config` for NoOfReplicas, the cluster's identity and the node group of a data node that is down now (its
 * status prints a placeholder), read the same way the engine's configuration state reads them.
 */
export async function readPlanInputs(client: MgmClient, options?: CallOptions): Promise<PlanInputs> {
  const status = await client.getStatus(undefined, options);
  const config = new ConfigState();
  const read = await client.getConfig({ linksOf: NO_LINKS }, options);
  config.apply(read, 0);
  const dataNodes = status
    .filter((n) => n.type === 'NDB')
    .map((n) => ({ nodeId: n.nodeId, status: n.status, nodeGroup: n.nodeGroup ?? config.nodeGroup(n.nodeId) }));
  const mgmNodeIds = status.filter((n) => n.type === 'MGM').map((n) => n.nodeId);
  return { dataNodes, mgmNodeIds, replicas: config.replicas(), cluster: clusterIdentity(read), arbitration: arbitrationCandidates(read.nodes) };
}
