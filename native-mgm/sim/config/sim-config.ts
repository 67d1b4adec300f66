import { buildClusterConfig, type ClusterConfig, type NodeSpec } from '../../config/index.js';
import { SIM_DATA_MEMORY_BYTES, SIM_INDEX_MEMORY_BYTES } from '../memory.js';
import type { Topology } from '../topology.js';

export interface ListenAddress {
  host: string;
  port: number;
}

/**
 * The configuration a simulated cluster would have been started from: its nodes' hosts and ids, NoOfReplicas,
 * each data node's NodeGroup and the memory sizes its MemoryUsage reports count pages of. Management servers are
 * listed where they really listen, so a client that learns the other mgmds from the configuration can reach them.
 */
export function configFromTopology(topology: Topology, mgmds: ReadonlyMap<number, ListenAddress>, name = 'MC_SIMULATED'): ClusterConfig {
  const nodes: NodeSpec[] = [
    ...topology.mgm.map((m): NodeSpec => {
      const at = mgmds.get(m.id);
      return { nodeId: m.id, type: 'MGM', params: { HostName: at?.host ?? m.address, PortNumber: at?.port ?? 1186, DataDir: `/var/lib/mysql-cluster/mgmd${m.id}` } };
    }),
    ...topology.data.map(
      (d): NodeSpec => ({
        nodeId: d.id,
        type: 'NDB',
        params: {
          HostName: d.address,
          NodeGroup: d.nodeGroup,
          NoOfReplicas: topology.replicas,
          DataMemory: d.dataMemoryBytes ?? SIM_DATA_MEMORY_BYTES,
          IndexMemory: d.indexMemoryBytes ?? SIM_INDEX_MEMORY_BYTES,
          DataDir: `/var/lib/mysql-cluster/ndbd${d.id}`,
        },
      }),
    ),
    ...topology.api.map((a): NodeSpec => ({ nodeId: a.id, type: 'API', params: {} })),
  ];
  return buildClusterConfig({ name, nodes });
}
