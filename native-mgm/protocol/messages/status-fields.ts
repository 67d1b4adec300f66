/** The fields of a `get status` node block: their names and order, the known words, and the record they fill. */
import { NODE_STATUSES, NODE_TYPES, type NodeState } from '../../types.js';
import { ascii, text, rangeIs, Word, WordSet } from '../kv.js';

/** The highest node id (MAX_NODES - 1, spec §1.6). */
export const MAX_NODE_ID = 255;

/** The fields of a node block; the server prints them in this order (§5.3), and the constants below index them. */
export const FIELDS = ['type', 'status', 'version', 'mysql_version', 'startphase', 'dynamic_id', 'node_group', 'connect_count', 'address', 'is_single_user'] as const;
export const TYPE = 0;
export const STATUS = 1;
export const VERSION = 2;
export const MYSQL_VERSION = 3;
export const START_PHASE = 4;
export const DYNAMIC_ID = 5;
export const NODE_GROUP = 6;
export const CONNECT_COUNT = 7;
export const ADDRESS = 8;
export const SINGLE_USER = 9;
const FIELD_BYTES = FIELDS.map(ascii);
/** What follows `node.<id>.` on a line as the server prints it: the field name and its separator. */
export const FIELD_KEYS = FIELDS.map((f) => new Word(`${f}: `));
export const TYPE_WORDS = NODE_TYPES.map((w) => [w, ascii(w)] as const);
export const STATUS_WORDS = NODE_STATUSES.map((w) => [w, ascii(w)] as const);
/** Known values with their LF, for the fast path, in the order of the protocol's own strings. */
export const TYPE_LINES = new WordSet(NODE_TYPES.map((w) => new Word(`${w}\n`)));
export const STATUS_LINES = new WordSet(NODE_STATUSES.map((w) => new Word(`${w}\n`)));
export const STATUSES: ReadonlySet<string> = new Set(NODE_STATUSES);
/** Bits of `StatusLines.given`: a block without one of these fields is refused (the others default to 0). */
export const GAVE_TYPE = 1;
export const GAVE_STATUS = 2;

/** `extra` of every node with nothing unknown: shared, so frozen. */
export const NO_EXTRA: Record<string, string> = Object.freeze({});

/**
 * A node's record as its block starts: the final NodeState, filled in place as the lines stream in (one object
 * per node per poll). Until `settle`, the number fields hold the numbers as printed (placeholders included, NaN
 * for a value that is not a number) and absent ones count as 0, like the server's placeholders.
 */
export function blankNode(id: number): NodeState {
  return {
    nodeId: id,
    type: 'NDB',
    status: 'UNKNOWN',
    statusRaw: '',
    startPhase: 0,
    nodeGroup: 0,
    version: null,
    versionRaw: 0,
    mysqlVersion: null,
    mysqlVersionRaw: 0,
    address: null,
    connectCount: 0,
    dynamicId: 0,
    isSingleUser: null,
    isMaster: false,
    extra: NO_EXTRA,
  };
}

/** Number field `f` (VERSION .. CONNECT_COUNT) of `node`, as printed. */
export function setNumber(node: NodeState, f: number, n: number): void {
  switch (f) {
    case VERSION:
      node.versionRaw = n;
      break;
    case MYSQL_VERSION:
      node.mysqlVersionRaw = n;
      break;
    case START_PHASE:
      node.startPhase = n;
      break;
    case DYNAMIC_ID:
      node.dynamicId = n;
      break;
    case NODE_GROUP:
      node.nodeGroup = n;
      break;
    default:
      node.connectCount = n;
  }
}

/** FIELDS index of `b[start, end)`, trying `guess` first since blocks keep their order; -1 if not one. */
export function fieldIndex(b: Uint8Array, start: number, end: number, guess: number): number {
  if (guess < FIELD_BYTES.length && rangeIs(b, start, end, FIELD_BYTES[guess] as Uint8Array)) return guess;
  for (let i = 0; i < FIELD_BYTES.length; i++) if (rangeIs(b, start, end, FIELD_BYTES[i] as Uint8Array)) return i;
  return -1;
}

/** The protocol's own string for a known word (no string cut per poll), else the word cut out. */
export function word(known: ReadonlyArray<readonly [string, Uint8Array]>, b: Buffer, start: number, end: number): string {
  for (const [w, bytes] of known) if (rangeIs(b, start, end, bytes)) return w;
  return text(b, start, end);
}
