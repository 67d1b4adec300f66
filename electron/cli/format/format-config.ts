import type { ClusterConfig, ConfigNode } from '../../../native-mgm/config/index.js';

const SECTION: Record<ConfigNode['type'], string> = { NDB: 'ndbd(DB)', MGM: 'ndb_mgmd(MGM)', API: 'mysqld(API)' };
const ORDER: ConfigNode['type'][] = ['NDB', 'MGM', 'API'];

/**
 * The configuration grouped by section like `ndb_config --print-full-config`: one `[ndbd(DB)]` (and so on)
 * section per node with `Name=value` lines (NodeId and HostName first), data nodes first. Values are printed as the server stores them
 * (bytes, milliseconds, 0/1), so a script can read them back.
 */
export function formatConfig(config: ClusterConfig, nodes: readonly ConfigNode[]): string {
  const out = [`Cluster ${config.name}, configuration generation ${config.generation}, primary management server ${config.primaryMgmd || 'not set'}`, ''];
  for (const type of ORDER) {
    for (const n of nodes.filter((x) => x.type === type)) {
      const { NodeId, HostName, ...rest } = n.params;
      out.push(`[${SECTION[type]}]`, `NodeId=${NodeId}`, `HostName=${HostName ?? ''}`, ...Object.entries(rest).map(([k, v]) => `${k}=${v}`), '');
    }
  }
  const ids = new Set(nodes.map((n) => n.nodeId));
  const connections = config.connections.filter((c) => ids.has(c.nodeId1) || ids.has(c.nodeId2)).length;
  out.push(`${connections} connection section(s); --json lists them`);
  return `${out.join('\n')}\n`;
}
