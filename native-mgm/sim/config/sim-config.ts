import { blockInstances, buildClusterConfig, threadConfigFor, type BlockInstances, type ClusterConfig, type NodeSpec } from '../../config/index.js';
import { SIM_DATA_MEMORY_BYTES, SIM_INDEX_MEMORY_BYTES } from '../workload/memory.js';
import type { Topology } from '../state/topology.js';

export interface ListenAddress {
  host: string;
  port: number;
}

/**
 * The redo log the simulator's own configuration gives each data node: 4 parts of 16 files of 64 MiB (4 GiB), a
 * production-sized log (the server's default is 1 GiB); `sim/activity/redo-log.ts` fills what is configured.
 */
export const SIM_REDO = { NoOfFragmentLogParts: 4, NoOfFragmentLogFiles: 16, FragmentLogFileSize: 64 * 1024 * 1024 } as const;

/** DBTC and DBLQH instances per data node when the simulator is not told otherwise. */
export const SIM_INSTANCES: BlockInstances = { tc: 4, lqh: 4 };

/**
 * The configuration a simulated cluster would have been started from: its nodes' hosts and ids, NoOfReplicas,
 * each data node's NodeGroup, the memory sizes its MemoryUsage reports count pages of, and a ThreadConfig that
 * gives it the TC and LQH instances its statistics come from. Management servers are listed where they really
 * listen, so a client that learns the other mgmds from the configuration can reach them.
 */
export function configFromTopology(topology: Topology, mgmds: ReadonlyMap<number, ListenAddress>, instances = SIM_INSTANCES, name = 'MC_SIMULATED'): ClusterConfig {
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
          ThreadConfig: threadConfigFor(instances),
          ...SIM_REDO,
        },
      }),
    ),
    ...topology.api.map((a): NodeSpec => ({ nodeId: a.id, type: 'API', params: {} })),
  ];
  return buildClusterConfig({ name, nodes });
}

/**
 * Each data node's TC and LQH instances: what a given configuration (`sim --config`) decides for it, else `own`,
 * which is also what the simulator's generated configuration names. Either way the monitor reading `get config`
 * finds the counts the statistics are sent with.
 */
export function simInstances(given: ClusterConfig | undefined, own: BlockInstances): (nodeId: number) => BlockInstances {
  const decided = new Map((given?.nodes ?? []).filter((n) => n.type === 'NDB').map((n) => [n.nodeId, blockInstances(n.params)]));
  return (nodeId) => decided.get(nodeId) ?? own;
}
