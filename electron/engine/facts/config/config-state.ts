import type { ClusterConfigView, ConfigGenerationChange, ConfigParamInfo } from '../../../contract/schemas/config.js';
import type { EventView } from '../../../contract/schemas/events.js';
import type { NodeView } from '../../../contract/schemas/node.js';
import { blockInstances, NO_NODEGROUP, paramsOf, type BlockInstances, type ClusterConfig, type ConfigNode } from '../../../../native-mgm/index.js';
import { describeChanges, diffConfigs } from './config-diff.js';

/** The table's units and defaults, by name, for the renderer (which cannot import native-mgm). */
function paramInfo(): ConfigParamInfo[] {
  const byName = new Map<string, ConfigParamInfo>();
  for (const [type, section] of [['NDB', 'DB'], ['API', 'API'], ['MGM', 'MGM']] as const) {
    for (const p of paramsOf(section)) {
      const info: ConfigParamInfo = byName.get(p.name) ?? { name: p.name, unit: p.unit, defaults: {} };
      info.defaults[type] = p.defaults[section] ?? null;
      byName.set(p.name, info);
    }
  }
  return [...byName.values()];
}
const PARAM_INFO = paramInfo();

export type ConfigNote = Omit<EventView, 'seq'>;

/**
 * The cluster's configuration as last read: what the tracker takes from it (node groups of nodes never seen up,
 * NoOfReplicas, configured hosts and memory sizes, the other management servers) and what changed at a new
 * generation. Pure, like the tracker: the read time comes with the input.
 */
export class ConfigState {
  private current: ClusterConfig | null = null;
  private receivedAt = 0;
  private nodes = new Map<number, ConfigNode>();
  private lastChange: ConfigGenerationChange | null = null;
  private readCount = 0;

  /** How many configurations were read: what is derived from one holds until the next. */
  get reads(): number {
    return this.readCount;
  }

  get generation(): number | null {
    return this.current?.generation ?? null;
  }

  /** A new read; returns the event-log entry for a changed configuration (null for the first or an equal one). */
  apply(config: ClusterConfig, at: number): ConfigNote | null {
    const previous = this.current;
    this.readCount += 1;
    this.current = config;
    this.receivedAt = at;
    this.nodes = new Map(config.nodes.map((n) => [n.nodeId, n]));
    if (!previous) return null;
    const changes = diffConfigs(previous, config);
    if (changes.length === 0 && previous.generation === config.generation) return null;
    this.lastChange = { at, fromGeneration: previous.generation, toGeneration: config.generation, changes };
    return {
      at,
      typeId: -1,
      name: 'ConfigurationChanged',
      category: 'CONFIGURATION',
      severity: 'INFO',
      sourceNodeId: config.primaryMgmd,
      subjectNodeId: null,
      text: `Configuration generation ${previous.generation} → ${config.generation}: ${describeChanges(changes)}`,
      fields: { fromGeneration: previous.generation, toGeneration: config.generation, changes: changes.length },
    };
  }

  /** NodeGroup as configured: 'none' for a data node in no node group, null when unknown. */
  nodeGroup(nodeId: number): number | 'none' | null {
    const n = this.nodes.get(nodeId);
    if (!n || n.type !== 'NDB' || n.nodeGroup === null) return null;
    return n.nodeGroup === NO_NODEGROUP ? 'none' : n.nodeGroup;
  }

  /** A data node's TC and LQH instance counts where its thread configuration decides them, else null. */
  instances(nodeId: number): BlockInstances | null {
    const n = this.nodes.get(nodeId);
    return n?.type === 'NDB' ? blockInstances(n.params) : null;
  }

  /** NoOfReplicas of the data nodes, null before the configuration is known. */
  replicas(): number | null {
    const d = this.current?.nodes.find((n) => n.type === 'NDB');
    const r = d?.params['NoOfReplicas'];
    return typeof r === 'number' ? r : null;
  }

  configured(nodeId: number): NodeView['configured'] {
    const n = this.nodes.get(nodeId);
    if (!n) return null;
    const bytes = (name: string): number | null => (typeof n.params[name] === 'number' ? (n.params[name] as number) : null);
    return { hostname: n.hostname, dataMemoryBytes: n.type === 'NDB' ? bytes('DataMemory') : null, indexMemoryBytes: n.type === 'NDB' ? bytes('IndexMemory') : null };
  }

  /** Management servers the configuration lists, as host and port (those with a host name only). */
  mgmds(): Array<{ host: string; port: number }> {
    return (this.current?.nodes ?? [])
      .filter((n) => n.type === 'MGM' && n.hostname !== '')
      .map((n) => ({ host: n.hostname, port: Number(n.params['PortNumber'] ?? 1186) }));
  }

  view(): ClusterConfigView | null {
    const c = this.current;
    if (!c) return null;
    return {
      name: c.name,
      generation: c.generation,
      primaryMgmd: c.primaryMgmd,
      receivedAt: this.receivedAt,
      nodes: c.nodes.map((n) => ({ nodeId: n.nodeId, type: n.type, hostname: n.hostname, nodeGroup: n.nodeGroup, params: { ...n.params } })),
      paramInfo: PARAM_INFO,
      lastChange: this.lastChange,
    };
  }
}
