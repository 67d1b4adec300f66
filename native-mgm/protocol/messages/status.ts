import { ProtocolError } from '../../errors.js';
import { NODE_STATUSES, NODE_TYPES, type NodeState, type NodeStatus, type NodeType } from '../../types.js';
import { decodeVersion } from '../../version.js';
import type { Reply } from '../frames.js';
import { acceptReply, parseIntStrict } from './reply-fields.js';

/** RNIL printed signed: the data node belongs to no node group (spec §5.3). */
const NO_NODE_GROUP = -256;
const MAX_NODE_ID = 255;

type RawNode = { id: number; values: Record<string, string | undefined> };

/**
 * `get status` (spec §5). Stricter than mgmapi about framing (every node id valid and contiguous, count equal
 * to `nodes:`), looser about content (an unknown field is kept in `extra`, not an error).
 */
export function parseStatusReply(reply: Reply): NodeState[] {
  const { fields, reply: r } = acceptReply(reply, 'get status');
  const expected = fields.int('nodes');
  const raw: RawNode[] = [];
  const seen = new Set<number>();
  let current = null as RawNode | null;
  let currentPrefix = '';
  const pairs = r.pairs;
  for (let i = 0; i < pairs.length; i++) {
    const [key, value] = pairs[i] as readonly [string, string];
    // `node.<id>.<field>`, parsed by hand: ~2,500 of these per poll of a large cluster.
    if (!key.startsWith('node.')) continue; // `nodes`, or a newer server's extra top-level key
    const dot = key.indexOf('.', 5);
    if (dot < 0) throw new ProtocolError('malformed key in get status', key);
    const field = key.slice(dot + 1);
    if (current !== null && key.startsWith(currentPrefix) && dot === currentPrefix.length - 1) {
      current.values[field] = value;
      continue;
    }
    const id = parseIntStrict(key.slice(5, dot), `node id in "${key}"`);
    if (id < 1 || id > MAX_NODE_ID) throw new ProtocolError('node id out of range in get status', key);
    currentPrefix = key.slice(0, dot + 1);
    if (current?.id !== id) {
      // A node's keys always come together (§5.3); seeing an id again means the reply is corrupt.
      if (seen.has(id)) throw new ProtocolError('node listed twice in get status', `node ${id}`);
      seen.add(id);
      current = { id, values: {} };
      raw.push(current);
    }
    current.values[field] = value;
  }
  if (raw.length !== expected) {
    throw new ProtocolError('get status node count mismatch', `nodes: ${expected}, listed ${raw.length}`);
  }
  const nodes = raw.map(toNodeState).sort((a, b) => a.nodeId - b.nodeId);
  markMaster(nodes);
  return nodes;
}

const KNOWN_FIELDS = new Set([
  'type',
  'status',
  'version',
  'mysql_version',
  'startphase',
  'dynamic_id',
  'node_group',
  'connect_count',
  'address',
  'is_single_user',
]);

function toNodeState({ id, values }: RawNode): NodeState {
  const text = (field: string): string => {
    const v = values[field];
    if (v === undefined) throw new ProtocolError(`get status: node ${id} lacks "${field}"`);
    return v;
  };
  const int = (field: string): number => {
    const v = values[field];
    return v === undefined ? 0 : parseIntStrict(v, `node.${id}.${field}`);
  };

  const typeText = text('type');
  if (!(NODE_TYPES as readonly string[]).includes(typeText)) {
    throw new ProtocolError(`get status: unknown node type for node ${id}`, JSON.stringify(typeText));
  }
  const type = typeText as NodeType;
  const statusRaw = text('status');
  const status: NodeStatus = (NODE_STATUSES as readonly string[]).includes(statusRaw) ? (statusRaw as NodeStatus) : 'UNKNOWN';
  // A data node the mgmd cannot see prints zeros for everything; those zeros are placeholders, not facts.
  const reachable = type === 'NDB' && status !== 'NO_CONTACT' && status !== 'UNKNOWN';
  const versionRaw = int('version');
  const mysqlVersionRaw = int('mysql_version');
  const nodeGroupRaw = int('node_group');
  const dynamicIdRaw = int('dynamic_id');
  const address = values.address ?? '';
  const singleUser = values.is_single_user;

  const extra: Record<string, string> = {};
  for (const k in values) if (!KNOWN_FIELDS.has(k)) extra[k] = values[k] as string;

  return {
    nodeId: id,
    type,
    status,
    statusRaw,
    startPhase: int('startphase'),
    nodeGroup: !reachable ? null : nodeGroupRaw === NO_NODE_GROUP ? 'none' : nodeGroupRaw,
    version: decodeVersion(versionRaw),
    versionRaw,
    mysqlVersion: decodeVersion(mysqlVersionRaw),
    mysqlVersionRaw,
    // 0.0.0.0 is what a data node reports for an API slot nobody uses (§5.3).
    address: address === '' || address === '0.0.0.0' ? null : address,
    connectCount: reachable ? int('connect_count') : null,
    dynamicId: reachable && dynamicIdRaw !== 0 ? dynamicIdRaw : null,
    isSingleUser: singleUser === undefined ? null : singleUser === '1',
    isMaster: false,
    extra,
  };
}

/**
 * The master (president) reports its dynamic id negated; older servers do not, and then the smallest
 * positive id among running data nodes is the master, as ndb_mgm shows it (spec §5.3).
 */
function markMaster(nodes: NodeState[]): void {
  const running = nodes.filter(
    (n) => n.type === 'NDB' && n.dynamicId !== null && (n.status === 'STARTED' || n.status === 'STARTING' || n.status === 'SINGLE USER MODE'),
  );
  const negative = running.find((n) => (n.dynamicId ?? 0) < 0);
  const master = negative ?? running.reduce<NodeState | undefined>((best, n) => (best === undefined || (n.dynamicId ?? 0) < (best.dynamicId ?? 0) ? n : best), undefined);
  if (master) master.isMaster = true;
}
