import { mysqlVersionOf } from '../../version.js';
import type { ClusterState } from '../state/cluster-state.js';
import type { NodeType } from '../../types.js';

export interface StatusRow {
  id: number;
  type: NodeType;
  status: string;
  version: number;
  startphase: number;
  dynamicId: number;
  nodeGroup: number;
  connectCount: number;
  address: string;
  isSingleUser: boolean;
}

const absent = (id: number, type: NodeType, status: string, address: string): StatusRow => ({
  id,
  type,
  status,
  version: 0,
  startphase: 0,
  dynamicId: 0,
  nodeGroup: 0,
  connectCount: 0,
  address,
  isSingleUser: false,
});

/** Every configured node as management server `viewer` sees it (spec §5.3), grouped by type, ascending ids. */
export function statusRows(cluster: ClusterState, viewer: number): Record<NodeType, StatusRow[]> {
  const master = cluster.master();
  const ndb = [...cluster.data.values()].map((n): StatusRow => {
    if (n.status === 'NO_CONTACT') return absent(n.id, 'NDB', 'NO_CONTACT', '');
    return {
      id: n.id,
      type: 'NDB',
      status: cluster.singleUserApi !== null && n.status === 'STARTED' ? 'SINGLE USER MODE' : n.status,
      version: n.version,
      startphase: n.status === 'STARTING' || n.status === 'SHUTTING_DOWN' ? n.startPhase : 0,
      dynamicId: n === master ? -n.dynamicId : n.dynamicId,
      nodeGroup: n.nodeGroup,
      connectCount: n.connectCount,
      address: n.address,
      isSingleUser: false,
    };
  });
  const mgm = [...cluster.mgm.values()].map((m): StatusRow =>
    m.id === viewer || m.running
      ? { ...absent(m.id, 'MGM', 'CONNECTED', m.address), version: m.version }
      : absent(m.id, 'MGM', 'NO_CONTACT', ''),
  );
  const answered = cluster.anyDataNodeStarted();
  const api = [...cluster.api.values()].map((a): StatusRow => {
    if (!answered) return absent(a.id, 'API', 'UNKNOWN', '');
    if (!a.connected) return absent(a.id, 'API', 'NO_CONTACT', '0.0.0.0');
    return { ...absent(a.id, 'API', 'CONNECTED', a.address), version: a.version, isSingleUser: cluster.singleUserApi === a.id };
  });
  const byId = (x: StatusRow, y: StatusRow): number => x.id - y.id;
  return { NDB: ndb.sort(byId), MGM: mgm.sort(byId), API: api.sort(byId) };
}

const TYPE_NAMES: Record<string, NodeType> = { NDB: 'NDB', DB: 'NDB', ndbd: 'NDB', API: 'API', mysqld: 'API', MGM: 'MGM', ndb_mgmd: 'MGM' };
const MAX_TYPES = 3;

/** The `types:` argument (spec §5.2): at most 3 single-space-separated names, stopping at the first unknown one. */
export function parseTypes(value: string | undefined): NodeType[] {
  if (value === undefined) return ['NDB', 'MGM', 'API'];
  const types: NodeType[] = [];
  for (const name of value.split(' ').slice(0, MAX_TYPES)) {
    const type = TYPE_NAMES[name];
    if (!type) break;
    types.push(type);
  }
  return types;
}

/** The `get status` reply (spec §5.1): integers as signed %d; `is_single_user` only for new-enough clients. */
export function formatStatus(rows: Record<NodeType, StatusRow[]>, types: readonly NodeType[], withSingleUser: boolean): string {
  const listed = types.flatMap((t) => rows[t]);
  let out = `node status\nnodes: ${listed.length}\n`;
  for (const r of listed) {
    const p = `node.${r.id}.`;
    out +=
      `${p}type: ${r.type}\n${p}status: ${r.status}\n${p}version: ${r.version | 0}\n${p}mysql_version: ${mysqlVersionOf(r.version) | 0}\n` +
      `${p}startphase: ${r.startphase | 0}\n${p}dynamic_id: ${r.dynamicId | 0}\n${p}node_group: ${r.nodeGroup | 0}\n` +
      `${p}connect_count: ${r.connectCount | 0}\n${p}address: ${r.address}\n`;
    if (withSingleUser) out += `${p}is_single_user: ${r.isSingleUser ? 1 : 0}\n`;
  }
  return `${out}\n`;
}
