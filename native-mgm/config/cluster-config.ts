import type { ConfigSectionType, ConfigValue } from './params.js';

export type ConfigNodeType = 'NDB' | 'API' | 'MGM';
export type ConfigParams = Record<string, ConfigValue>;

export interface ConfigNode {
  nodeId: number;
  type: ConfigNodeType;
  hostname: string;
  /** Data nodes: NodeGroup as configured (65536 = no node group); null for other types or when not set. */
  nodeGroup: number | null;
  /** Every parameter of the node, its own value else its type's default section's, keyed by config.ini name. */
  params: ConfigParams;
}

export interface ConfigConnection {
  type: 'TCP' | 'SHM';
  nodeId1: number;
  nodeId2: number;
  params: ConfigParams;
}

/** A cluster's configuration as the management server hands it out (`get config_v2`, spec §4.18.1). */
export interface ClusterConfig {
  name: string;
  generation: number;
  primaryMgmd: number;
  /** System section entries other than the three above (kept, never dropped). */
  system: ConfigParams;
  nodes: ConfigNode[];
  connections: ConfigConnection[];
}

/** Section type numbers of the packed format. */
export const SECTION_TYPES: Record<ConfigSectionType, number> = { DB: 1, API: 2, MGM: 3, TCP: 4, SHM: 5, SYSTEM: 6 };
export const NODE_SECTION: Record<ConfigNodeType, ConfigSectionType> = { NDB: 'DB', API: 'API', MGM: 'MGM' };
