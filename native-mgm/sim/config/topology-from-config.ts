import type { ClusterConfig } from '../../config/index.js';
import { NO_NODEGROUP } from '../../config/index.js';
import { parseVersionText } from '../../version.js';
import { MAX_DATA_NODES, type Topology } from '../state/topology.js';

/**
 * The simulator's topology from a real configuration (`sim --config`): its node ids, hosts, node groups and
 * memory sizes. API slots come up connected as in a generated topology (the first three).
 */
export function topologyFromConfig(config: ClusterConfig, version = '8.4.3'): Topology {
  const data = config.nodes.filter((n) => n.type === 'NDB');
  const mgm = config.nodes.filter((n) => n.type === 'MGM');
  const api = config.nodes.filter((n) => n.type === 'API');
  if (data.length === 0 || data.length > MAX_DATA_NODES) throw new RangeError(`the configuration has ${data.length} data nodes; the simulator needs 1..${MAX_DATA_NODES}`);
  if (mgm.length === 0 || mgm.length > 2) throw new RangeError(`the configuration has ${mgm.length} management servers; the simulator runs 1 or 2`);
  const replicas = Number(data[0]!.params['NoOfReplicas'] ?? 2);
  const groups = new Map<number, number>();
  for (const d of data) {
    if (Number(d.params['NoOfReplicas']) !== replicas) throw new RangeError(`data nodes disagree on NoOfReplicas (node ${d.nodeId})`);
    if (d.nodeGroup === null || d.nodeGroup === NO_NODEGROUP) throw new RangeError(`data node ${d.nodeId} is in no node group; the simulator needs every data node in one`);
    groups.set(d.nodeGroup, (groups.get(d.nodeGroup) ?? 0) + 1);
  }
  for (const [g, n] of groups) if (n !== replicas) throw new RangeError(`node group ${g} has ${n} data nodes, NoOfReplicas is ${replicas}`);
  const address = (host: string, fallback: string): string => (host === '' ? fallback : host);
  return {
    version: parseVersionText(version),
    replicas,
    mgm: mgm.map((m) => ({ id: m.nodeId, address: address(m.hostname, '127.0.0.1') })),
    data: data.map((d) => ({
      id: d.nodeId,
      address: address(d.hostname, 'localhost'),
      nodeGroup: d.nodeGroup!,
      dataMemoryBytes: Number(d.params['DataMemory']),
      indexMemoryBytes: Number(d.params['IndexMemory'] ?? 0),
    })),
    api: api.map((a, i) => ({ id: a.nodeId, address: address(a.hostname, `10.0.1.${i + 1}`), connected: i < 3 })),
  };
}
