import { parseVersionText } from '../../version.js';

/** Kernel limits (spec §1.6): node ids 1..255, data node ids 1..144. */
export const MAX_NODE_ID = 255;
export const MAX_DATA_NODE_ID = 144;
export const MAX_DATA_NODES = 144;

export interface TopologyOptions {
  dataNodes?: number;
  replicas?: number;
  mgmNodes?: number;
  apiNodes?: number;
  connectedApiNodes?: number;
  version?: string;
}

export interface NodeSlot {
  id: number;
  address: string;
}
export interface DataNodeSlot extends NodeSlot {
  nodeGroup: number;
  /** From a configuration (`sim --config`); the simulator's own sizes otherwise. */
  dataMemoryBytes?: number;
  indexMemoryBytes?: number;
}

export interface Topology {
  version: number;
  replicas: number;
  mgm: NodeSlot[];
  data: DataNodeSlot[];
  api: (NodeSlot & { connected: boolean })[];
}

function intInRange(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer in ${min}..${max}, got ${value}`);
  }
  return value;
}

/**
 * Node ids are laid out like a typical config.ini: management servers 1..M, data nodes next, API slots after
 * (for more than 144 - M data nodes: data nodes first).
 * Addresses follow §5.7's example: servers at 10.0.0.(10+id), API hosts after them in the same /24 while it has
 * room, else on 10.0.1.x.
 */
export function buildTopology(options: TopologyOptions = {}): Topology {
  const replicas = intInRange('replicas', options.replicas ?? 2, 1, 4);
  const dataCount = intInRange('dataNodes', options.dataNodes ?? 2, 1, MAX_DATA_NODES);
  if (dataCount % replicas !== 0) {
    throw new RangeError(`dataNodes (${dataCount}) must be a multiple of replicas (${replicas})`);
  }
  const mgmCount = intInRange('mgmNodes', options.mgmNodes ?? 1, 1, 2);
  const apiCount = intInRange('apiNodes', options.apiNodes ?? 4, 0, MAX_NODE_ID);
  const connectedApi = intInRange('connectedApiNodes', options.connectedApiNodes ?? Math.min(3, apiCount), 0, apiCount);
  // Data node ids must stay within 1..144: a cluster too big to put the mgmds first puts them after the data nodes.
  const dataFirst = mgmCount + dataCount > MAX_DATA_NODE_ID;
  const firstDataId = dataFirst ? 1 : mgmCount + 1;
  const firstMgmId = dataFirst ? dataCount + 1 : 1;
  const lastServerId = mgmCount + dataCount;
  const total = lastServerId + apiCount;
  if (total > MAX_NODE_ID) throw new RangeError(`${total} nodes in all, above the limit of ${MAX_NODE_ID} node ids`);
  const version = parseVersionText(options.version ?? '8.4.3');

  const serverAddress = (id: number): string => `10.0.0.${10 + id}`;
  const apiAddress = (ordinal: number): string =>
    lastServerId <= 10 && 20 + ordinal <= 254 ? `10.0.0.${20 + ordinal}` : `10.0.1.${ordinal}`;

  return {
    version,
    replicas,
    mgm: Array.from({ length: mgmCount }, (_, i) => ({ id: firstMgmId + i, address: serverAddress(firstMgmId + i) })),
    data: Array.from({ length: dataCount }, (_, i) => {
      const id = firstDataId + i;
      return { id, address: serverAddress(id), nodeGroup: Math.floor(i / replicas) };
    }),
    api: Array.from({ length: apiCount }, (_, i) => ({
      id: lastServerId + 1 + i,
      address: apiAddress(i + 1),
      connected: i < connectedApi,
    })),
  };
}
