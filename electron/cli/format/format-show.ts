import type { NodeState, NodeType } from '../../../native-mgm/types.js';

const SECTION: Record<NodeType, string> = { NDB: 'ndbd(NDB)', MGM: 'ndb_mgmd(MGM)', API: 'mysqld(API)' };

const STATUS_WORDS: Partial<Record<string, string>> = {
  NOT_STARTED: 'not started',
  STARTING: 'starting',
  SHUTTING_DOWN: 'shutting down',
  'SINGLE USER MODE': 'single user mode',
  RESTARTING: 'restarting',
  UNKNOWN: 'unknown',
};

function versionText(n: NodeState): string {
  if (n.version === null) return '';
  return `mysql-${n.mysqlVersion ?? n.version} ndb-${n.version}`;
}

/** One line per node in the layout of `ndb_mgm -e show`, so operators read it as they always have. */
function nodeLine(n: NodeState): string {
  const down = n.type === 'API' ? n.status !== 'CONNECTED' : n.status === 'NO_CONTACT';
  if (down) {
    const why = n.status === 'UNKNOWN' ? 'status unknown: no data node reachable' : 'not connected, accepting connect from any host';
    return `id=${n.nodeId} (${why})`;
  }
  const parts = [versionText(n)];
  const word = STATUS_WORDS[n.status];
  if (n.type === 'NDB' && word) parts.push(n.status === 'STARTING' ? `${word}, Last completed phase ${n.startPhase}` : word);
  if (n.type === 'NDB') parts.push(n.nodeGroup === 'none' ? 'no nodegroup' : `Nodegroup: ${n.nodeGroup ?? '?'}`);
  if (n.isMaster) parts.push('*');
  const at = n.address === null ? '' : `\t@${n.address}`;
  return `id=${n.nodeId}${at}  (${parts.filter((p) => p !== '').join(', ')})`;
}

export function formatShow(nodes: readonly NodeState[], mgmd: { host: string; port: number }): string {
  const lines = [`Connected to Management Server at: ${mgmd.host}:${mgmd.port}`, 'Cluster Configuration', '---------------------'];
  for (const type of ['NDB', 'MGM', 'API'] as const) {
    const group = nodes.filter((n) => n.type === type);
    if (group.length === 0) continue;
    lines.push(`[${SECTION[type]}]\t${group.length} node(s)`, ...group.map(nodeLine), '');
  }
  return `${lines.join('\n')}\n`;
}
