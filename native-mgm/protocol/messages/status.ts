import { ProtocolError } from '../../errors.js';
import { NODE_STATUSES, NODE_TYPES, type NodeState, type NodeStatus, type NodeType } from '../../types.js';
import { decodeVersion } from '../../version.js';
import { feedPairs, type FieldSink, type Reply } from '../frames.js';
import { ascii, byteIn, decimalToLf, latin1, LF, rangeIs, viewOf, Word, WordSet } from '../kv.js';
import { acceptReply, parseDecimalAt, parseIntStrict } from './reply-fields.js';

/** RNIL printed signed: the data node belongs to no node group (spec §5.3). */
const NO_NODE_GROUP = -256;
const MAX_NODE_ID = 255;

const NODE_PREFIX = ascii('node.');
const NODE_WORD = new Word('node.');
const DOT = 46;
const ZERO = 48;
const ONE = 49;
const SPACE = 32;
const TAB = 9;
const CR = 13;

/** The fields of a node block, as `NodeLines` indexes them; the server prints them in this order (§5.3). */
const FIELDS = ['type', 'status', 'version', 'mysql_version', 'startphase', 'dynamic_id', 'node_group', 'connect_count', 'address', 'is_single_user'] as const;
const FIELD_BYTES = FIELDS.map(ascii);
/** What follows `node.<id>.` on a line as the server prints it: the field name and its separator. */
const FIELD_KEYS = FIELDS.map((f) => new Word(`${f}: `));
const TYPE_WORDS = NODE_TYPES.map((w) => [w, ascii(w)] as const);
const STATUS_WORDS = NODE_STATUSES.map((w) => [w, ascii(w)] as const);
/** Known values with their LF, for the fast path, in the order of the protocol's own strings. */
const TYPE_LINES = new WordSet(NODE_TYPES.map((w) => new Word(`${w}\n`)));
const STATUS_LINES = new WordSet(NODE_STATUSES.map((w) => new Word(`${w}\n`)));
const TYPE = 0;
const STATUS = 1;
/** FIELDS[FIRST_NUMBER .. FIRST_NUMBER + 5] are numbers. */
const FIRST_NUMBER = 2;
const ADDRESS = 8;
const SINGLE_USER = 9;

/** One node's block as it streams in: numbers parsed where they lie, words matched to the protocol's own strings. */
class NodeLines {
  type: string | undefined = undefined;
  status: string | undefined = undefined;
  address: string | undefined = undefined;
  isSingleUser: boolean | null = null;
  /**
   * FIELDS[FIRST_NUMBER + i] as `n0..n5` (fields, not an array: one object per node, not two). Absent counts as
   * 0, like the server's placeholders; NaN marks a value that is not a number.
   */
  n0 = 0;
  n1 = 0;
  n2 = 0;
  n3 = 0;
  n4 = 0;
  n5 = 0;
  /** The text of each NaN among the numbers, for the error that names it. */
  notNumbers: Array<string | undefined> | null = null;

  setNumber(i: number, n: number): void {
    if (i === 0) this.n0 = n;
    else if (i === 1) this.n1 = n;
    else if (i === 2) this.n2 = n;
    else if (i === 3) this.n3 = n;
    else if (i === 4) this.n4 = n;
    else this.n5 = n;
  }
  /** Made only for a field this version does not know (a newer server's), so most nodes share NO_EXTRA. */
  extra: Record<string, string> | null = null;

  constructor(
    readonly id: number,
    /** Digits of the id as printed, so `node.02.` and `node.2.` stay different blocks as before. */
    readonly idDigits: number,
  ) {}
}

/**
 * `get status` (spec §5), parsed line by line as the reply streams in (a FieldSink for the stream reader), or
 * from pairs already framed. Stricter than mgmapi about framing (every node id valid and contiguous, count
 * equal to `nodes:`), looser about content (an unknown field is kept in `extra`, not an error). A bad line is
 * remembered and thrown by `finish`, so the reply is still framed to its end and the session stays usable.
 */
export class StatusLines implements FieldSink {
  private readonly nodes: NodeLines[] = [];
  /** Node ids seen, a bit each: 32 bytes, which V8 keeps on its heap (a 256-byte array would get a backing store per poll). */
  private readonly seen = new Uint32Array(8);
  private current: NodeLines | null = null;
  private lastField = -1;
  private error: ProtocolError | null = null;
  private readonly number = { n: 0 };

  /**
   * The fast path (FieldSink.lines): node lines exactly as the server prints them, in its field order, each read
   * in one pass over its bytes. Anything else, including every line that would be an error, is left to `field`.
   */
  lines(b: Buffer, start: number, end: number, maxLine: number): number {
    const view = viewOf(b);
    let pos = start;
    // Where the line before began and how long its `node.<id>.` is: a line with the same bytes there is the same node's.
    let prefixAt = -1;
    let prefixLen = 0;
    while (this.error === null) {
      let p: number;
      let node = this.current;
      if (prefixAt >= 0 && samePrefix(view, b, prefixAt, pos, prefixLen, end)) p = pos + prefixLen;
      else {
        p = this.nodePrefix(b, view, pos, end);
        if (p < 0) break;
        node = null;
      }
      const next = this.fastField(b, view, node, pos, p, end, maxLine);
      if (next < 0) break;
      prefixAt = pos;
      prefixLen = p - pos;
      pos = next;
    }
    return pos;
  }

  /**
   * `node.<id>.` at `start` naming a node that may begin here (not the current one; not seen before): where its
   * field name begins, with the id in `this.number`, else -1.
   */
  private nodePrefix(b: Buffer, view: DataView, start: number, end: number): number {
    if (!NODE_WORD.at(view, start, end)) return -1;
    const idStart = start + NODE_WORD.length;
    let p = idStart;
    let id = 0;
    for (; p < end && p - idStart < 4; p++) {
      const d = (b[p] as number) - ZERO;
      if (d < 0 || d > 9) break;
      id = id * 10 + d;
    }
    const digits = p - idStart;
    // Ids as the server prints them (%d, 1..255); `node.07.` and friends go the slow way.
    if (digits === 0 || digits > 3 || b[idStart] === ZERO || p === end || b[p] !== DOT) return -1;
    const node = this.current;
    if (node !== null && node.id === id && node.idDigits === digits) return -1;
    if (id > MAX_NODE_ID || this.wasSeen(id)) return -1;
    this.number.n = id;
    return p + 1;
  }

  /**
   * The rest of a line whose prefix was read, `<field>: <value>\n` from `p`: the field after the last one of
   * `node`, or the first of a new node (null; its id in `this.number`). Past the LF once taken, else -1 with
   * nothing changed.
   */
  private fastField(b: Buffer, view: DataView, node: NodeLines | null, start: number, p: number, end: number, maxLine: number): number {
    const id = this.number.n;
    const f = node === null ? 0 : this.lastField + 1;
    if (f >= FIELD_KEYS.length) return -1;
    const key = FIELD_KEYS[f] as Word;
    if (!key.at(view, p, end)) return -1;
    const vs = p + key.length;
    const stop = Math.min(end, start + maxLine + 1);
    let lf = -1;
    let text: string | undefined;
    if (f === TYPE || f === STATUS) {
      const known = f === TYPE ? TYPE_LINES : STATUS_LINES;
      const i = known.find(view, vs, stop);
      if (i < 0) return -1;
      text = (f === TYPE ? NODE_TYPES : NODE_STATUSES)[i];
      lf = vs + (known.words[i] as Word).length - 1;
    } else if (f === ADDRESS) {
      lf = vs;
      while (lf < stop && b[lf] !== LF) lf++;
      const last = b[lf - 1];
      if (lf === stop || lf === vs || isBlank(b[vs]) || isBlank(last) || last === CR) return -1;
      text = addressText((node as NodeLines).id, b, vs, lf);
    } else if (f === SINGLE_USER) {
      if (vs + 1 < stop && (b[vs] === ZERO || b[vs] === ONE) && b[vs + 1] === LF) lf = vs + 1;
    } else {
      lf = decimalToLf(b, vs, stop, this.number);
    }
    if (lf < 0) return -1;
    const into = node ?? this.startNode(id, p - start - NODE_WORD.length - 1);
    this.lastField = f;
    if (f === TYPE) into.type = text;
    else if (f === STATUS) into.status = text;
    else if (f === ADDRESS) into.address = text;
    else if (f === SINGLE_USER) into.isSingleUser = b[vs] === ONE;
    else into.setNumber(f - FIRST_NUMBER, this.number.n);
    return lf + 1;
  }

  private wasSeen(id: number): boolean {
    return ((this.seen[id >>> 5] as number) & (1 << (id & 31))) !== 0;
  }

  private startNode(id: number, digits: number): NodeLines {
    this.seen[id >>> 5] = (this.seen[id >>> 5] as number) | (1 << (id & 31));
    const node = new NodeLines(id, digits);
    this.current = node;
    this.nodes.push(node);
    this.lastField = -1;
    return node;
  }

  field(b: Buffer, ks: number, ke: number, vs: number, ve: number): boolean {
    // `nodes`, or a newer server's extra top-level key: left to the reply's pairs.
    if (ke - ks < NODE_PREFIX.length || !rangeIs(b, ks, ks + NODE_PREFIX.length, NODE_PREFIX)) return false;
    if (this.error !== null) return true;
    try {
      this.nodeLine(b, ks, ke, vs, ve);
    } catch (err) {
      this.error = err as ProtocolError;
    }
    return true;
  }

  /** `node.<id>.<field>`, taken apart in place. */
  private nodeLine(b: Buffer, ks: number, ke: number, vs: number, ve: number): void {
    const idStart = ks + NODE_PREFIX.length;
    const dot = byteIn(b, DOT, idStart, ke);
    if (dot < 0) throw new ProtocolError('malformed key in get status', latin1(b, ks, ke));
    let node = this.current;
    if (node === null || dot - idStart !== node.idDigits || parseDecimalAt(b, idStart, dot) !== node.id) {
      const id = parseDecimalAt(b, idStart, dot) ?? parseIntStrict(latin1(b, idStart, dot), `node id in "${latin1(b, ks, ke)}"`);
      if (id < 1 || id > MAX_NODE_ID) throw new ProtocolError('node id out of range in get status', latin1(b, ks, ke));
      // A node's keys always come together (§5.3); seeing an id again means the reply is corrupt.
      if (this.wasSeen(id)) throw new ProtocolError('node listed twice in get status', `node ${id}`);
      node = this.startNode(id, dot - idStart);
    }
    const fs = dot + 1;
    const f = fieldIndex(b, fs, ke, this.lastField + 1);
    this.lastField = f;
    if (f < 0) (node.extra ??= {})[latin1(b, fs, ke)] = latin1(b, vs, ve);
    else if (f === TYPE) node.type = word(TYPE_WORDS, b, vs, ve);
    else if (f === STATUS) node.status = word(STATUS_WORDS, b, vs, ve);
    else if (f === ADDRESS) node.address = addressText(node.id, b, vs, ve);
    else if (f === SINGLE_USER) node.isSingleUser = ve - vs === 1 && b[vs] === ONE;
    else {
      const n = parseDecimalAt(b, vs, ve);
      const i = f - FIRST_NUMBER;
      node.setNumber(i, n ?? NaN);
      if (n === null) (node.notNumbers ??= [])[i] = latin1(b, vs, ve);
    }
  }

  finish(reply: Reply): NodeState[] {
    const { fields } = acceptReply(reply, 'get status');
    const expected = fields.int('nodes');
    if (this.error !== null) throw this.error;
    if (this.nodes.length !== expected) {
      throw new ProtocolError('get status node count mismatch', `nodes: ${expected}, listed ${this.nodes.length}`);
    }
    const nodes = this.nodes.map(toNodeState).sort((a, b) => a.nodeId - b.nodeId);
    markMaster(nodes);
    return nodes;
  }
}

/** FIELDS index of `b[start, end)`, trying `guess` first since blocks keep their order; -1 if not one. */
function fieldIndex(b: Uint8Array, start: number, end: number, guess: number): number {
  if (guess < FIELD_BYTES.length && rangeIs(b, start, end, FIELD_BYTES[guess] as Uint8Array)) return guess;
  for (let i = 0; i < FIELD_BYTES.length; i++) if (rangeIs(b, start, end, FIELD_BYTES[i] as Uint8Array)) return i;
  return -1;
}

const isBlank = (c: number | undefined): boolean => c === SPACE || c === TAB;

/** Whether `b` holds at `pos` the `len` (7 to 9) bytes it holds at `at`: compared as two quads, and the byte between for 9. */
function samePrefix(view: DataView, b: Uint8Array, at: number, pos: number, len: number, end: number): boolean {
  return (
    pos + len <= end &&
    view.getInt32(pos, true) === view.getInt32(at, true) &&
    view.getInt32(pos + len - 4, true) === view.getInt32(at + len - 4, true) &&
    (len < 9 || b[pos + 4] === b[at + 4])
  );
}

/** Each node's address as last cut, by node id: the same bytes next poll reuse the string instead of cutting one. */
const lastAddress: Array<string | undefined> = new Array(MAX_NODE_ID + 1).fill(undefined);
const MAX_KEPT_ADDRESS = 64;

function addressText(id: number, b: Buffer, start: number, end: number): string {
  const last = lastAddress[id];
  if (last !== undefined && last.length === end - start) {
    let i = 0;
    while (i < last.length && last.charCodeAt(i) === b[start + i]) i++;
    if (i === last.length) return last;
  }
  const text = latin1(b, start, end);
  if (text.length <= MAX_KEPT_ADDRESS) lastAddress[id] = text;
  return text;
}

/** The protocol's own string for a known word (no string cut per poll), else the word cut out. */
function word(known: ReadonlyArray<readonly [string, Uint8Array]>, b: Buffer, start: number, end: number): string {
  for (const [w, bytes] of known) if (rangeIs(b, start, end, bytes)) return w;
  return latin1(b, start, end);
}

/** `get status` from a reply already framed into pairs (the client streams its lines into StatusLines instead). */
export function parseStatusReply(reply: Reply): NodeState[] {
  const lines = new StatusLines();
  if (reply.kind === 'reply') feedPairs(lines, reply.pairs);
  return lines.finish(reply);
}

/** `extra` of every node with nothing unknown: shared, so frozen. */
const NO_EXTRA: Record<string, string> = Object.freeze({});

const TYPES: ReadonlySet<string> = new Set(NODE_TYPES);
const STATUSES: ReadonlySet<string> = new Set(NODE_STATUSES);

/** Number `i` of the node, `v`, or the error naming its field as the server printed it. */
function numberOf(n: NodeLines, i: number, v: number): number {
  if (!Number.isNaN(v)) return v;
  return parseIntStrict(n.notNumbers?.[i] ?? '', `node.${n.id}.${FIELDS[FIRST_NUMBER + i]}`);
}

function toNodeState(n: NodeLines): NodeState {
  const { id } = n;
  if (n.type === undefined) throw new ProtocolError(`get status: node ${id} lacks "type"`);
  if (n.status === undefined) throw new ProtocolError(`get status: node ${id} lacks "status"`);
  if (!TYPES.has(n.type)) throw new ProtocolError(`get status: unknown node type for node ${id}`, JSON.stringify(n.type));
  const type = n.type as NodeType;
  const status: NodeStatus = STATUSES.has(n.status) ? (n.status as NodeStatus) : 'UNKNOWN';
  // A data node the mgmd cannot see prints zeros for everything; those zeros are placeholders, not facts.
  const reachable = type === 'NDB' && status !== 'NO_CONTACT' && status !== 'UNKNOWN';
  const versionRaw = numberOf(n, 0, n.n0);
  const mysqlVersionRaw = numberOf(n, 1, n.n1);
  const startPhase = numberOf(n, 2, n.n2);
  const dynamicIdRaw = numberOf(n, 3, n.n3);
  const nodeGroupRaw = numberOf(n, 4, n.n4);
  const connectCount = numberOf(n, 5, n.n5);
  const address = n.address ?? '';
  return {
    nodeId: id,
    type,
    status,
    statusRaw: n.status,
    startPhase,
    nodeGroup: !reachable ? null : nodeGroupRaw === NO_NODE_GROUP ? 'none' : nodeGroupRaw,
    version: decodeVersion(versionRaw),
    versionRaw,
    mysqlVersion: decodeVersion(mysqlVersionRaw),
    mysqlVersionRaw,
    // 0.0.0.0 is what a data node reports for an API slot nobody uses (§5.3).
    address: address === '' || address === '0.0.0.0' ? null : address,
    connectCount: reachable ? connectCount : null,
    dynamicId: reachable && dynamicIdRaw !== 0 ? dynamicIdRaw : null,
    isSingleUser: n.isSingleUser,
    isMaster: false,
    extra: n.extra ?? NO_EXTRA,
  };
}

/**
 * The master (president) reports its dynamic id negated; older servers do not, and then the smallest
 * positive id among running data nodes is the master, as ndb_mgm shows it (spec §5.3).
 */
function markMaster(nodes: NodeState[]): void {
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
