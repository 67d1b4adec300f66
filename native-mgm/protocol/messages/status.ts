import { ProtocolError } from '../../errors.js';
import { NODE_STATUSES, NODE_TYPES, type NodeState, type NodeStatus, type NodeType } from '../../types.js';
import { decodeVersion } from '../../version.js';
import { feedPairs, type FieldSink, type Reply } from '../frames.js';
import { ascii, byteIn, decimalToLf, latin1, rangeIs, viewOf, Word, WordSet } from '../kv.js';
import { acceptReply, parseDecimalAt, parseIntStrict } from './reply-fields.js';

/** RNIL printed signed: the data node belongs to no node group (spec §5.3). */
const NO_NODE_GROUP = -256;
const MAX_NODE_ID = 255;

const NODE_PREFIX = ascii('node.');
const NODE_WORD = new Word('node.');
/** `node` as the fast path reads it: the first four bytes of every node line, as one little-endian quad. */
const NODE_QUAD = NODE_PREFIX.readInt32LE(0);
const DOT = 46;
const ZERO = 48;
const ONE = 49;
const SPACE = 32;
const TAB = 9;
const CR = 13;
const LF = 10;

/** The fields of a node block; the server prints them in this order (§5.3), and the constants below index them. */
const FIELDS = ['type', 'status', 'version', 'mysql_version', 'startphase', 'dynamic_id', 'node_group', 'connect_count', 'address', 'is_single_user'] as const;
const TYPE = 0;
const STATUS = 1;
const VERSION = 2;
const MYSQL_VERSION = 3;
const START_PHASE = 4;
const DYNAMIC_ID = 5;
const NODE_GROUP = 6;
const CONNECT_COUNT = 7;
const ADDRESS = 8;
const SINGLE_USER = 9;
const FIELD_BYTES = FIELDS.map(ascii);
/** What follows `node.<id>.` on a line as the server prints it: the field name and its separator. */
const FIELD_KEYS = FIELDS.map((f) => new Word(`${f}: `));
const TYPE_WORDS = NODE_TYPES.map((w) => [w, ascii(w)] as const);
const STATUS_WORDS = NODE_STATUSES.map((w) => [w, ascii(w)] as const);
/** Known values with their LF, for the fast path, in the order of the protocol's own strings. */
const TYPE_LINES = new WordSet(NODE_TYPES.map((w) => new Word(`${w}\n`)));
const STATUS_LINES = new WordSet(NODE_STATUSES.map((w) => new Word(`${w}\n`)));
const STATUSES: ReadonlySet<string> = new Set(NODE_STATUSES);
/** Bits of `StatusLines.given`: a block without one of these fields is refused (the others default to 0). */
const GAVE_TYPE = 1;
const GAVE_STATUS = 2;

/** `extra` of every node with nothing unknown: shared, so frozen. */
const NO_EXTRA: Record<string, string> = Object.freeze({});

/**
 * A node's record as its block starts: the final NodeState, filled in place as the lines stream in (one object
 * per node per poll). Until `settle`, the number fields hold the numbers as printed (placeholders included, NaN
 * for a value that is not a number) and absent ones count as 0, like the server's placeholders.
 */
function blankNode(id: number): NodeState {
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
function setNumber(node: NodeState, f: number, n: number): void {
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

/**
 * `get status` (spec §5), parsed line by line as the reply streams in (a FieldSink for the stream reader), or
 * from pairs already framed, straight into the NodeStates it returns. Stricter than mgmapi about framing (every
 * node id valid and contiguous, count equal to `nodes:`), looser about content (an unknown field is kept in
 * `extra`, not an error). A bad line is remembered and thrown by `finish`, so the reply is still framed to its
 * end and the session stays usable.
 */
export class StatusLines implements FieldSink {
  private readonly nodes: NodeState[] = [];
  /** Per node, as `nodes`: GAVE_* bits of the fields its block gave, for `finish` to name one that lacks a field. */
  private readonly given: number[] = [];
  /** Node ids seen, a bit each: 32 bytes, which V8 keeps on its heap (a 256-byte array would get a backing store per poll). */
  private readonly seen = new Uint32Array(8);
  private current: NodeState | null = null;
  /** Digits of the current node's id as printed, so `node.02.` and `node.2.` stay different blocks. */
  private currentDigits = 0;
  /**
   * `node.<id>.` of the current node as the fast path compares a line against it: its length (0 when the fast
   * path cannot, for ids of more than three digits) and its last four bytes as a quad.
   */
  private prefixLen = 0;
  private prefixTail = 0;
  private lastField = -1;
  /** Whether the blocks came in ascending id order, as a server that lists one type sends them: no sort then. */
  private ascending = true;
  private error: ProtocolError | null = null;
  /** Text a NodeState cannot hold, kept only for a reply that has some: an unknown type word, a number that is not one. */
  private texts: Map<NodeState, Array<string | undefined>> | null = null;
  private readonly number = { n: 0 };

  /**
   * The fast path (FieldSink.lines): node lines exactly as the server prints them, in its field order, each read
   * in one pass over its bytes. Anything else, including every line that would be an error, is left to `field`.
   */
  lines(b: Buffer, start: number, end: number, maxLine: number): number {
    if (this.error !== null) return start;
    const view = viewOf(b);
    let pos = start;
    for (;;) {
      // A ternary, not Math.min: V8 compiled that one to a float compare, with conversions, on every line.
      const limit = pos + maxLine + 1;
      const stop = limit < end ? limit : end;
      const next = this.hasCurrentPrefix(view, b, pos, end) ? this.nextLine(b, view, pos, end, stop) : this.firstLine(b, view, pos, end, stop);
      if (next < 0) return pos;
      pos = next;
    }
  }

  /** Whether the line at `pos` begins with the current node's `node.<id>.`: two quads, and the byte between for a 3-digit id. */
  private hasCurrentPrefix(view: DataView, b: Buffer, pos: number, end: number): boolean {
    const len = this.prefixLen;
    return (
      len !== 0 &&
      pos + len <= end &&
      view.getInt32(pos, true) === NODE_QUAD &&
      view.getInt32(pos + len - 4, true) === this.prefixTail &&
      (len < 9 || b[pos + 4] === DOT)
    );
  }

  /**
   * The line at `pos` as the next field of the current node, whose prefix it has: past its LF once taken, else -1
   * with nothing changed. Its value must end (LF included) by `stop`.
   */
  private nextLine(b: Buffer, view: DataView, pos: number, end: number, stop: number): number {
    const f = this.lastField + 1;
    // A type line after the first (only after one the slow path took) goes the slow way too.
    if (f === TYPE || f >= FIELD_KEYS.length) return -1;
    const key = FIELD_KEYS[f] as Word;
    const ks = pos + this.prefixLen;
    if (!key.at(view, ks, end)) return -1;
    const node = this.current as NodeState;
    const vs = ks + key.length;
    // Six lines of ten are numbers: read here, the rest in a method of its own, so this one stays small enough
    // for the compiler to inline into `lines` (and the number reader into it).
    let lf: number;
    if (f >= VERSION && f <= CONNECT_COUNT) {
      lf = decimalToLf(b, vs, stop, this.number);
      if (lf < 0) return -1;
      setNumber(node, f, this.number.n);
    } else {
      lf = this.otherValue(node, f, b, view, vs, stop);
      if (lf < 0) return -1;
    }
    this.lastField = f;
    return lf + 1;
  }

  /** The status, address or is_single_user value at `vs` of `node`, as nextLine takes it: its LF once taken, else -1. */
  private otherValue(node: NodeState, f: number, b: Buffer, view: DataView, vs: number, stop: number): number {
    if (f === STATUS) {
      const i = STATUS_LINES.find(view, vs, stop);
      if (i < 0) return -1;
      node.status = node.statusRaw = NODE_STATUSES[i] as NodeStatus;
      this.gave(GAVE_STATUS);
      return vs + (STATUS_LINES.words[i] as Word).length - 1;
    }
    if (f === ADDRESS) {
      const kept = lastAddress[node.nodeId];
      if (kept !== undefined && kept.line !== null && kept.line.at(view, vs, stop)) {
        node.address = kept.text;
        return vs + kept.line.length - 1;
      }
      const lf = addressEnd(b, vs, stop);
      if (lf >= 0) node.address = addressText(node.nodeId, b, vs, lf);
      return lf;
    }
    if (vs + 1 >= stop || (b[vs] !== ZERO && b[vs] !== ONE) || b[vs + 1] !== LF) return -1;
    node.isSingleUser = b[vs] === ONE;
    return vs + 1;
  }

  /** The line at `pos` as the type line that begins a new node's block: past its LF once taken, else -1 with nothing changed. */
  private firstLine(b: Buffer, view: DataView, pos: number, end: number, stop: number): number {
    const ks = this.nodePrefix(b, view, pos, end);
    if (ks < 0) return -1;
    const key = FIELD_KEYS[TYPE] as Word;
    if (!key.at(view, ks, end)) return -1;
    const vs = ks + key.length;
    const i = TYPE_LINES.find(view, vs, stop);
    if (i < 0) return -1;
    const node = this.startNode(this.number.n, b, view, pos, ks);
    node.type = NODE_TYPES[i] as NodeType;
    this.gave(GAVE_TYPE);
    this.lastField = TYPE;
    return vs + (TYPE_LINES.words[i] as Word).length;
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
    if (node !== null && node.nodeId === id && this.currentDigits === digits) return -1;
    if (id > MAX_NODE_ID || this.wasSeen(id)) return -1;
    this.number.n = id;
    return p + 1;
  }

  /** Marks a field the current node's block gave (GAVE_*). */
  private gave(bit: number): void {
    const last = this.given.length - 1;
    this.given[last] = (this.given[last] as number) | bit;
  }

  private wasSeen(id: number): boolean {
    return ((this.seen[id >>> 5] as number) & (1 << (id & 31))) !== 0;
  }

  /** A new block for node `id`, whose line has `node.<id>.` from `lineStart` to `fieldStart` in `b`. */
  private startNode(id: number, b: Buffer, view: DataView, lineStart: number, fieldStart: number): NodeState {
    this.seen[id >>> 5] = (this.seen[id >>> 5] as number) | (1 << (id & 31));
    const node = blankNode(id);
    const last = this.current;
    if (last !== null && last.nodeId > id) this.ascending = false;
    const len = fieldStart - lineStart;
    this.current = node;
    this.currentDigits = len - NODE_WORD.length - 1;
    // The fast path's two-quad compare covers prefixes of 7 to 9 bytes (ids of one to three digits).
    this.prefixLen = len >= 7 && len <= 9 ? len : 0;
    this.prefixTail = this.prefixLen === 0 ? 0 : view.getInt32(lineStart + len - 4, true);
    this.nodes.push(node);
    this.given.push(0);
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
    if (node === null || dot - idStart !== this.currentDigits || parseDecimalAt(b, idStart, dot) !== node.nodeId) {
      const id = parseDecimalAt(b, idStart, dot) ?? parseIntStrict(latin1(b, idStart, dot), `node id in "${latin1(b, ks, ke)}"`);
      if (id < 1 || id > MAX_NODE_ID) throw new ProtocolError('node id out of range in get status', latin1(b, ks, ke));
      // A node's keys always come together (§5.3); seeing an id again means the reply is corrupt.
      if (this.wasSeen(id)) throw new ProtocolError('node listed twice in get status', `node ${id}`);
      node = this.startNode(id, b, viewOf(b), ks, dot + 1);
    }
    const fs = dot + 1;
    const f = fieldIndex(b, fs, ke, this.lastField + 1);
    this.lastField = f;
    if (f < 0) {
      if (node.extra === NO_EXTRA) node.extra = {};
      node.extra[latin1(b, fs, ke)] = latin1(b, vs, ve);
    } else if (f === TYPE) this.setType(node, b, vs, ve);
    else if (f === STATUS) {
      const status = word(STATUS_WORDS, b, vs, ve);
      node.statusRaw = status;
      node.status = STATUSES.has(status) ? (status as NodeStatus) : 'UNKNOWN';
      this.gave(GAVE_STATUS);
    } else if (f === ADDRESS) node.address = addressText(node.nodeId, b, vs, ve);
    else if (f === SINGLE_USER) node.isSingleUser = ve - vs === 1 && b[vs] === ONE;
    else {
      const n = parseDecimalAt(b, vs, ve);
      setNumber(node, f, n ?? NaN);
      if (n === null) this.textsOf(node)[f] = latin1(b, vs, ve);
    }
  }

  /** A type line read the slow way: a word this version does not know is kept as text, for `finish` to refuse. */
  private setType(node: NodeState, b: Buffer, vs: number, ve: number): void {
    const type = word(TYPE_WORDS, b, vs, ve);
    this.gave(GAVE_TYPE);
    if (NODE_TYPES.includes(type as NodeType)) {
      node.type = type as NodeType;
      const texts = this.texts?.get(node);
      if (texts) texts[TYPE] = undefined;
    } else this.textsOf(node)[TYPE] = type;
  }

  private textsOf(node: NodeState): Array<string | undefined> {
    this.texts ??= new Map();
    let texts = this.texts.get(node);
    if (texts === undefined) this.texts.set(node, (texts = []));
    return texts;
  }

  finish(reply: Reply): NodeState[] {
    const { fields } = acceptReply(reply, 'get status');
    const expected = fields.int('nodes');
    if (this.error !== null) throw this.error;
    const { nodes, given } = this;
    if (nodes.length !== expected) {
      throw new ProtocolError('get status node count mismatch', `nodes: ${expected}, listed ${nodes.length}`);
    }
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i] as NodeState;
      settle(node, given[i] as number, this.texts?.get(node));
    }
    if (!this.ascending) nodes.sort((a, b) => a.nodeId - b.nodeId);
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

/** The LF ending an address at `start` as the server prints it (not empty, nothing to trim, no CR), before `stop`; else -1. */
function addressEnd(b: Buffer, start: number, stop: number): number {
  let lf = start;
  while (lf < stop && b[lf] !== LF) lf++;
  const last = b[lf - 1];
  return lf === stop || lf === start || isBlank(b[start]) || isBlank(last) || last === CR ? -1 : lf;
}

/**
 * Each node's address as last cut, by node id, when it is one the fast path would take as it is (not empty, no
 * blank or CR at its ends): the same bytes next poll reuse the string instead of cutting one. Once an address
 * repeats, the fast path matches it with its LF as a Word (four bytes at a time, no scan for the LF first); made
 * only then, so addresses that change every poll (two clusters in one process) cost no more than a cut.
 */
const lastAddress: Array<{ text: string; line: Word | null } | undefined> = new Array(MAX_NODE_ID + 1).fill(undefined);
const MAX_KEPT_ADDRESS = 64;
/** A Word has at least four bytes: shorter addresses (with their LF) are compared by `sameText` only. */
const MIN_WORD_ADDRESS = 3;

function addressText(id: number, b: Buffer, start: number, end: number): string {
  const kept = lastAddress[id];
  if (kept !== undefined && kept.text.length === end - start && sameText(kept.text, b, start)) {
    if (kept.line === null && kept.text.length >= MIN_WORD_ADDRESS) kept.line = new Word(`${kept.text}\n`);
    return kept.text;
  }
  const text = latin1(b, start, end);
  const final = text.charCodeAt(text.length - 1);
  const asPrinted = !isBlank(text.charCodeAt(0)) && !isBlank(final) && final !== CR;
  if (asPrinted && text.length <= MAX_KEPT_ADDRESS) lastAddress[id] = { text, line: null };
  return text;
}

/** Whether `b` holds the latin1 `text` at `start` (the caller checked it fits). */
function sameText(text: string, b: Buffer, start: number): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) !== b[start + i]) return false;
  return true;
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

/** The number fields in the order `finish` checks them, with the names the server prints. */
const NUMBER_FIELDS = [VERSION, MYSQL_VERSION, START_PHASE, DYNAMIC_ID, NODE_GROUP, CONNECT_COUNT] as const;

/**
 * Checks what a node's block gave and turns the server's placeholders into null, in place (§5.3): a data node
 * the mgmd cannot see prints zeros for everything, and those zeros are placeholders, not facts.
 */
function settle(node: NodeState, given: number, texts: ReadonlyArray<string | undefined> | undefined): void {
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
