/** The end of a `get status` reply: each node checked, placeholders turned into null, the master marked (spec §5.3). */
import { ProtocolError } from '../../errors.js';
import type { NodeState } from '../../types.js';
import { decodeVersion } from '../../version.js';
import { parseIntStrict } from './reply-fields.js';
import { CONNECT_COUNT, DYNAMIC_ID, FIELDS, GAVE_STATUS, GAVE_TYPE, MYSQL_VERSION, NODE_GROUP, START_PHASE, TYPE, VERSION } from './status-fields.js';

/** RNIL printed signed: the data node belongs to no node group (spec §5.3). */
const NO_NODE_GROUP = -256;

/** The number fields in the order `finish` checks them, with the names the server prints. */
const NUMBER_FIELDS = [VERSION, MYSQL_VERSION, START_PHASE, DYNAMIC_ID, NODE_GROUP, CONNECT_COUNT] as const;

/**
 * Checks what a node's block gave and turns the server's placeholders into null, in place (§5.3): a data node
 * the mgmd cannot see prints zeros for everything, and those zeros are placeholders, not facts.
 */
export function settle(node: NodeState, given: number, texts: ReadonlyArray<string | undefined> | undefined): void {
  const id = node.nodeId;
  if ((given & GAVE_TYPE) === 0) throw new ProtocolError(`get status: node ${id} lacks "type"`);
  if ((given & GAVE_STATUS) === 0) throw new ProtocolError(`get status: node ${id} lacks "status"`);
  const typeText = texts?.[TYPE];
  if (typeText !== undefined) throw new ProtocolError(`get status: unknown node type for node ${id}`, JSON.stringify(typeText));
  // One test for all six: a sum of numbers is NaN only when one of them is.
  if (Number.isNaN(node.versionRaw + node.mysqlVersionRaw + node.startPhase + (node.dynamicId as number) + (node.nodeGroup as number) + (node.connectCount as number))) {
    refuseNumber(node, texts);
  }
  const reachable = node.type === 'NDB' && node.status !== 'NO_CONTACT' && node.status !== 'UNKNOWN';
  const group = node.nodeGroup as number;
  node.nodeGroup = !reachable ? null : group === NO_NODE_GROUP ? 'none' : group;
  node.version = decodeVersion(node.versionRaw);
  node.mysqlVersion = decodeVersion(node.mysqlVersionRaw);
  // 0.0.0.0 is what a data node reports for an API slot nobody uses (§5.3).
  if (node.address === '' || node.address === '0.0.0.0') node.address = null;
  if (!reachable) node.connectCount = null;
  if (!reachable || node.dynamicId === 0) node.dynamicId = null;
}

/** Throws the error naming the first number field of `node` that is not a number, as the server printed it. */
function refuseNumber(node: NodeState, texts: ReadonlyArray<string | undefined> | undefined): void {
  const values = [node.versionRaw, node.mysqlVersionRaw, node.startPhase, node.dynamicId, node.nodeGroup, node.connectCount];
  const i = values.findIndex((v) => Number.isNaN(v));
  const f = NUMBER_FIELDS[i] as number;
  // Its text did not parse where it lay, so this throws the error that names the field.
  parseIntStrict(texts?.[f] ?? '', `node.${node.nodeId}.${FIELDS[f]}`);
}

/**
 * The master (president) reports its dynamic id negated; older servers do not, and then the smallest
 * positive id among running data nodes is the master, as ndb_mgm shows it (spec §5.3).
 */
export function markMaster(nodes: NodeState[]): void {
  let negative: NodeState | undefined;
  let smallest: NodeState | undefined;
  for (const n of nodes) {
    const id = n.dynamicId;
    if (n.type !== 'NDB' || id === null || (n.status !== 'STARTED' && n.status !== 'STARTING' && n.status !== 'SINGLE USER MODE')) continue;
    if (id < 0) negative ??= n;
    if (smallest === undefined || id < (smallest.dynamicId as number)) smallest = n;
  }
  const master = negative ?? smallest;
  if (master) master.isMaster = true;
}
