import { createHash } from 'node:crypto';

/** What `get config` says of a cluster, as native-mgm's ClusterConfig and the contract's ClusterConfigView both carry it. */
export interface ConfigShape {
  name: string;
  nodes: ReadonlyArray<{ nodeId: number; type: string; hostname: string; nodeGroup: number | null }>;
}

/** Which cluster a recorded plan belongs to: a key for the file and words for the operator. */
export interface ClusterIdentity {
  key: string;
  label: string;
}

/**
 * The cluster's identity from its configuration: its name and its data nodes (id, host, node group), hashed. Not the
 * connectstring: the same host and port serve another cluster after a reinstall or another simulator, and one
 * cluster is reached by several connectstrings. A new configuration generation that changes none of these keeps it.
 */
export function clusterIdentity(config: ConfigShape): ClusterIdentity {
  const data = config.nodes
    .filter((n) => n.type === 'NDB')
    .map((n) => [n.nodeId, n.hostname, n.nodeGroup] as const)
    .sort((a, b) => a[0] - b[0]);
  const key = createHash('sha256').update(JSON.stringify({ name: config.name, data })).digest('hex').slice(0, 16);
  return { key, label: `cluster "${config.name}" with ${dataNodesText(data.map((d) => d[0]))} (${key})` };
}

/** "data nodes 2, 3, 4, 5", or "48 data nodes (2 to 49)" where the list would be a paragraph. */
export function dataNodesText(ids: readonly number[]): string {
  if (ids.length > 8) return `${ids.length} data nodes (${Math.min(...ids)} to ${Math.max(...ids)})`;
  return `data node${ids.length === 1 ? '' : 's'} ${ids.join(', ')}`;
}
