import { NODE_SECTION, type ClusterConfig, type ConfigConnection, type ConfigNode, type ConfigNodeType, type ConfigParams } from './cluster-config.js';
import { paramsOf } from './params.js';

export interface NodeSpec {
  nodeId: number;
  type: ConfigNodeType;
  /** config.ini-named values that differ from the server's defaults. */
  params: ConfigParams;
}

export interface ClusterSpec {
  name: string;
  generation?: number;
  primaryMgmd?: number;
  nodes: NodeSpec[];
  /** Values for every TCP connection (a `[tcp default]` section). */
  tcp?: ConfigParams;
}

/** The server's defaults of a section type: every parameter that has one. */
function defaultsOf(type: ConfigNodeType | 'TCP'): ConfigParams {
  const section = type === 'TCP' ? 'TCP' : NODE_SECTION[type];
  const out: ConfigParams = {};
  for (const p of paramsOf(section)) {
    const d = p.defaults[section];
    if (d !== null && d !== undefined) out[p.name] = d;
  }
  return out;
}

/**
 * A whole configuration as ndb_mgmd would derive it from config.ini: every parameter with its default unless
 * given, FileSystemPath from DataDir and BackupDataDir from FileSystemPath (ConfigInfo's fixFileSystemPath and
 * fixBackupDataDir), and a TCP connection between every data node and every other node (add_node_connections).
 */
export function buildClusterConfig(spec: ClusterSpec): ClusterConfig {
  const nodes: ConfigNode[] = [...spec.nodes]
    .sort((a, b) => a.nodeId - b.nodeId)
    .map((n) => {
      const params: ConfigParams = { ...defaultsOf(n.type), ...n.params, NodeId: n.nodeId };
      if (n.type === 'NDB') {
        params['FileSystemPath'] ??= params['DataDir'] ?? '.';
        params['BackupDataDir'] ??= params['FileSystemPath']!;
      }
      const group = params['NodeGroup'];
      return {
        nodeId: n.nodeId,
        type: n.type,
        hostname: String(params['HostName'] ?? ''),
        nodeGroup: n.type === 'NDB' && typeof group === 'number' ? group : null,
        params,
      };
    });
  const data = nodes.filter((n) => n.type === 'NDB');
  const connections: ConfigConnection[] = [];
  for (const d of data) {
    for (const other of nodes) {
      if (other.nodeId === d.nodeId || (other.type === 'NDB' && other.nodeId < d.nodeId)) continue;
      const [a, b] = other.type === 'NDB' ? [d, other] : [other, d];
      connections.push({
        type: 'TCP',
        nodeId1: a.nodeId,
        nodeId2: b.nodeId,
        params: { ...defaultsOf('TCP'), ...spec.tcp, NodeId1: a.nodeId, NodeId2: b.nodeId, HostName1: a.hostname, HostName2: b.hostname, NodeIdServer: d.nodeId },
      });
    }
  }
  return { name: spec.name, generation: spec.generation ?? 1, primaryMgmd: spec.primaryMgmd ?? 0, system: {}, nodes, connections };
}
