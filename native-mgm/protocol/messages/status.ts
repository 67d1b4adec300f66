import { ProtocolError } from '../../errors.js';
import { NODE_STATUSES, NODE_TYPES, type NodeState, type NodeStatus, type NodeType } from '../../types.js';
import { feedPairs, type FieldSink, type Reply } from '../frames.js';
import { ascii, byteIn, decimalToLf, text, rangeIs, viewOf, Word } from '../kv.js';
import { acceptReply, parseDecimalAt, parseIntStrict } from './reply-fields.js';
import { addressEnd, addressText, lastAddress } from './status-address.js';
import {
  ADDRESS,
  blankNode,
  CONNECT_COUNT,
  FIELD_KEYS,
  fieldIndex,
  GAVE_STATUS,
  GAVE_TYPE,
  MAX_NODE_ID,
  NO_EXTRA,
  setNumber,
  SINGLE_USER,
  STATUS,
  STATUS_LINES,
  STATUS_WORDS,
  STATUSES,
  TYPE,
  TYPE_LINES,
  TYPE_WORDS,
  VERSION,
  word,
} from './status-fields.js';
import { markMaster, settle } from './status-settle.js';

const NODE_PREFIX = ascii('node.');
const NODE_WORD = new Word('node.');
/** `node` as the fast path reads it: the first four bytes of every node line, as one little-endian quad. */
const NODE_QUAD = NODE_PREFIX.readInt32LE(0);
const DOT = 46;
const ZERO = 48;
const ONE = 49;
const LF = 10;

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
    if (dot < 0) throw new ProtocolError('malformed key in get status', text(b, ks, ke));
    let node = this.current;
    if (node === null || dot - idStart !== this.currentDigits || parseDecimalAt(b, idStart, dot) !== node.nodeId) {
      const id = parseDecimalAt(b, idStart, dot) ?? parseIntStrict(text(b, idStart, dot), `node id in "${text(b, ks, ke)}"`);
      if (id < 1 || id > MAX_NODE_ID) throw new ProtocolError('node id out of range in get status', text(b, ks, ke));
      // A node's keys always come together (§5.3); seeing an id again means the reply is corrupt.
      if (this.wasSeen(id)) throw new ProtocolError('node listed twice in get status', `node ${id}`);
      node = this.startNode(id, b, viewOf(b), ks, dot + 1);
    }
    const fs = dot + 1;
    const f = fieldIndex(b, fs, ke, this.lastField + 1);
    this.lastField = f;
    if (f < 0) {
      if (node.extra === NO_EXTRA) node.extra = {};
      node.extra[text(b, fs, ke)] = text(b, vs, ve);
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
      if (n === null) this.textsOf(node)[f] = text(b, vs, ve);
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

/** `get status` from a reply already framed into pairs (the client streams its lines into StatusLines instead). */
export function parseStatusReply(reply: Reply): NodeState[] {
  const lines = new StatusLines();
  if (reply.kind === 'reply') feedPairs(lines, reply.pairs);
  return lines.finish(reply);
}
