import { ProtocolError } from '../../errors.js';
import { NODE_STATUSES, NODE_TYPES, type NodeState, type NodeStatus, type NodeType } from '../../types.js';
import { decodeVersion } from '../../version.js';
import type { Reply } from '../frames.js';
import { acceptReply, parseDecimal, parseIntStrict } from './reply-fields.js';

/** RNIL printed signed: the data node belongs to no node group (spec §5.3). */
const NO_NODE_GROUP = -256;
const MAX_NODE_ID = 255;

/** One node's lines as text, in a fixed shape (a node's ten keys are set ~2,500 times per large poll). */
interface RawNode {
  id: number;
  type: string | undefined;
  status: string | undefined;
  version: string | undefined;
  mysqlVersion: string | undefined;
  startphase: string | undefined;
  dynamicId: string | undefined;
  nodeGroup: string | undefined;
  connectCount: string | undefined;
  address: string | undefined;
  isSingleUser: string | undefined;
  extra: Record<string, string>;
}

function rawNode(id: number): RawNode {
  return {
    id,
    type: undefined,
    status: undefined,
    version: undefined,
    mysqlVersion: undefined,
    startphase: undefined,
    dynamicId: undefined,
    nodeGroup: undefined,
    connectCount: undefined,
    address: undefined,
    isSingleUser: undefined,
    extra: {},
  };
}

function setField(node: RawNode, field: string, value: string): void {
  switch (field) {
    case 'type':
      node.type = value;
      return;
    case 'status':
      node.status = value;
      return;
    case 'version':
      node.version = value;
      return;
    case 'mysql_version':
      node.mysqlVersion = value;
      return;
    case 'startphase':
      node.startphase = value;
      return;
    case 'dynamic_id':
      node.dynamicId = value;
      return;
    case 'node_group':
      node.nodeGroup = value;
      return;
    case 'connect_count':
      node.connectCount = value;
      return;
    case 'address':
      node.address = value;
      return;
    case 'is_single_user':
      node.isSingleUser = value;
      return;
    default:
      node.extra[field] = value;
  }
}

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
    // Indexed, not destructured: destructuring goes through the iterator protocol on this hot path.
    const pair = pairs[i] as readonly [string, string];
    const key = pair[0];
    const value = pair[1];
    // `node.<id>.<field>`, split by hand rather than by a regex, for the same reason as RawNode.
    if (!key.startsWith('node.')) continue; // `nodes`, or a newer server's extra top-level key
    const dot = key.indexOf('.', 5);
    if (dot < 0) throw new ProtocolError('malformed key in get status', key);
    if (current === null || dot !== currentPrefix.length - 1 || !key.startsWith(currentPrefix)) {
      const id = parseIntStrict(key.slice(5, dot), () => `node id in "${key}"`);
      if (id < 1 || id > MAX_NODE_ID) throw new ProtocolError('node id out of range in get status', key);
      // A node's keys always come together (§5.3); seeing an id again means the reply is corrupt.
      if (seen.has(id)) throw new ProtocolError('node listed twice in get status', `node ${id}`);
      seen.add(id);
      currentPrefix = key.slice(0, dot + 1);
      current = rawNode(id);
      raw.push(current);
    }
    setField(current, key.slice(dot + 1), value);
  }
  if (raw.length !== expected) {
    throw new ProtocolError('get status node count mismatch', `nodes: ${expected}, listed ${raw.length}`);
  }
  const nodes = raw.map(toNodeState).sort((a, b) => a.nodeId - b.nodeId);
  markMaster(nodes);
  return nodes;
}

const TYPES: ReadonlySet<string> = new Set(NODE_TYPES);
const STATUSES: ReadonlySet<string> = new Set(NODE_STATUSES);

/** A numeric field of node `id`; absent counts as 0 like the server's placeholders. */
function intField(v: string | undefined, id: number, field: string): number {
  if (v === undefined) return 0;
  // The error text is built only on failure: this runs some 1,500 times per poll of a large cluster.
  return parseDecimal(v) ?? parseIntStrict(v, `node.${id}.${field}`);
}

function toNodeState(n: RawNode): NodeState {
  const { id } = n;
  if (n.type === undefined) throw new ProtocolError(`get status: node ${id} lacks "type"`);
  if (n.status === undefined) throw new ProtocolError(`get status: node ${id} lacks "status"`);
  if (!TYPES.has(n.type)) throw new ProtocolError(`get status: unknown node type for node ${id}`, JSON.stringify(n.type));
  const type = n.type as NodeType;
  const status: NodeStatus = STATUSES.has(n.status) ? (n.status as NodeStatus) : 'UNKNOWN';
  // A data node the mgmd cannot see prints zeros for everything; those zeros are placeholders, not facts.
  const reachable = type === 'NDB' && status !== 'NO_CONTACT' && status !== 'UNKNOWN';
  const versionRaw = intField(n.version, id, 'version');
  const mysqlVersionRaw = intField(n.mysqlVersion, id, 'mysql_version');
  const nodeGroupRaw = intField(n.nodeGroup, id, 'node_group');
  const dynamicIdRaw = intField(n.dynamicId, id, 'dynamic_id');
  const connectCount = intField(n.connectCount, id, 'connect_count');
  const address = n.address ?? '';
  return {
    nodeId: id,
    type,
    status,
    statusRaw: n.status,
    startPhase: intField(n.startphase, id, 'startphase'),
    nodeGroup: !reachable ? null : nodeGroupRaw === NO_NODE_GROUP ? 'none' : nodeGroupRaw,
    version: decodeVersion(versionRaw),
    versionRaw,
    mysqlVersion: decodeVersion(mysqlVersionRaw),
    mysqlVersionRaw,
    // 0.0.0.0 is what a data node reports for an API slot nobody uses (§5.3).
    address: address === '' || address === '0.0.0.0' ? null : address,
    connectCount: reachable ? connectCount : null,
    dynamicId: reachable && dynamicIdRaw !== 0 ? dynamicIdRaw : null,
    isSingleUser: n.isSingleUser === undefined ? null : n.isSingleUser === '1',
    isMaster: false,
    extra: n.extra,
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
