import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EventRecordParser } from '../../events/parse-event.js';
import { EVENT_TYPES } from '../../events/catalogue.js';
import { NODE_STATUSES } from '../../types.js';
import type { FieldSink, Frame, ReaderLimits, RecordSink } from '../frames.js';
import { StatusLines } from '../messages/status.js';
import { readFrames } from './read-frames.js';

/**
 * The fast paths (FieldSink.lines, RecordSink.record) must read every byte sequence exactly as the line-by-line
 * path does: the reference is the same sink with its fast path hidden, so the reader frames each line itself.
 */

const slowStatus = (sink: StatusLines): FieldSink => ({ field: sink.field.bind(sink) });
const slowRecords = (sink: EventRecordParser): RecordSink => ({ begin: sink.begin.bind(sink), field: sink.field.bind(sink), end: sink.end.bind(sink) });

const LIMITS = { maxLineBytes: 256, maxReplyBytes: 64 * 1024, maxRecordLines: 24 };

/** Frames and, for the status reply, what `finish` makes of it: nodes or the error it throws. */
function statusOutcome(bytes: Buffer, fast: boolean, chunks?: number[], limits: Partial<ReaderLimits> = LIMITS): { frames: unknown[]; took: number } {
  const lines = new StatusLines();
  let took = 0;
  const fastLines = lines.lines.bind(lines);
  lines.lines = (b, start, end, maxLine) => {
    const to = fastLines(b, start, end, maxLine);
    took += to - start;
    return to;
  };
  const sink = fast ? lines : slowStatus(lines);
  const frames = readFrames(bytes, [{ kind: 'kv', header: 'node status', sink }], chunks, limits).map((f) => {
    if (f.type !== 'reply') return describe(f);
    try {
      return { nodes: lines.finish(f.reply) };
    } catch (err) {
      return { thrown: `${(err as Error).name}: ${(err as Error).message}` };
    }
  });
  return { frames, took };
}

function eventsOutcome(bytes: Buffer, fast: boolean, chunks?: number[], limits: Partial<ReaderLimits> = LIMITS): { frames: unknown[]; took: number } {
  const parser = new EventRecordParser(() => 0);
  let took = 0;
  const fastRecord = parser.record.bind(parser);
  parser.record = (...args) => {
    const to = fastRecord(...args);
    if (to >= 0) took++;
    return to;
  };
  const records = fast ? parser : slowRecords(parser);
  return { frames: readFrames(bytes, [{ kind: 'listen', records }], chunks, limits).map(describe), took };
}

/** Errors compared by what they say (two instances are never equal). */
function describe(f: Frame): unknown {
  return f.type === 'error' ? { error: `${f.error.name}: ${f.error.message}`, fatal: f.fatal } : f;
}

/** Ways a line can differ from how the server prints it; each must send the fast path the slow way, or read the same. */
type Twist = 'cr' | 'blank-key' | 'blank-value' | 'tab-value' | 'drop' | 'swap' | 'repeat' | 'huge' | 'text' | 'negative' | 'zero-id' | 'extra' | 'colon';
const TWISTS: Twist[] = ['cr', 'blank-key', 'blank-value', 'tab-value', 'drop', 'swap', 'repeat', 'huge', 'text', 'negative', 'zero-id', 'extra', 'colon'];
const twists = fc.array(fc.record({ at: fc.nat(), twist: fc.constantFrom(...TWISTS) }), { maxLength: 3 });

function applyTwists(lines: string[], list: ReadonlyArray<{ at: number; twist: Twist }>, sep: ':' | '='): string[] {
  const out = [...lines];
  for (const { at, twist } of list) {
    if (out.length === 0) break;
    const i = at % out.length;
    const line = out[i] as string;
    const cut = line.indexOf(sep === ':' ? ': ' : '=');
    const key = cut < 0 ? line : line.slice(0, cut);
    const value = cut < 0 ? '' : line.slice(cut + (sep === ':' ? 2 : 1));
    const join = (k: string, v: string): string => (sep === ':' ? `${k}: ${v}` : `${k}=${v}`);
    switch (twist) {
      case 'cr':
        out[i] = `${line}\r`;
        break;
      case 'blank-key':
        out[i] = ` ${line}`;
        break;
      case 'blank-value':
        out[i] = `${line} `;
        break;
      case 'tab-value':
        out[i] = join(key, `\t${value}`);
        break;
      case 'drop':
        out.splice(i, 1);
        break;
      case 'swap':
        if (i + 1 < out.length) [out[i], out[i + 1]] = [out[i + 1] as string, line];
        break;
      case 'repeat':
        out.splice(i, 0, line);
        break;
      case 'huge':
        out[i] = join(key, '12345678901234567');
        break;
      case 'text':
        out[i] = join(key, 'x1');
        break;
      case 'negative':
        out[i] = join(key, `-${value}`);
        break;
      case 'zero-id':
        out[i] = line.replace(/^node\.(\d+)\./, 'node.0$1.');
        break;
      case 'extra':
        out.splice(i, 0, join(sep === ':' ? key.replace(/[^.]+$/, 'new_field') : 'new_field', '7'));
        break;
      case 'colon':
        out[i] = sep === '=' ? `${key}:${value}` : `${key}:${value}`;
        break;
    }
  }
  return out;
}

interface NodeSpec {
  id: number;
  type: string;
  status: string;
  version: number;
  mysql: number;
  phase: number;
  dynamic: number;
  group: number;
  connects: number;
  address: string;
  single: string | null;
}

const nodeArb: fc.Arbitrary<NodeSpec> = fc.record({
  id: fc.integer({ min: 1, max: 255 }),
  type: fc.constantFrom('NDB', 'MGM', 'API', 'NDB', 'FOO'),
  status: fc.constantFrom(...NODE_STATUSES, 'WEIRD'),
  version: fc.constantFrom(0, 525315, 460324),
  mysql: fc.constantFrom(0, 525315),
  phase: fc.integer({ min: 0, max: 9 }),
  dynamic: fc.integer({ min: -300, max: 300 }),
  group: fc.constantFrom(0, 1, 7, -256, 65536),
  connects: fc.nat({ max: 100 }),
  address: fc.constantFrom('10.0.0.11', '0.0.0.0', 'fe80::1:2', '192.168.100.200', 'a b'),
  single: fc.constantFrom('0', '1', '2', null),
});


function statusReply(nodes: readonly NodeSpec[], list: ReadonlyArray<{ at: number; twist: Twist }>, count: number): Buffer {
  const lines: string[] = [];
  for (const n of nodes) {
    const k = `node.${n.id}`;
    lines.push(`${k}.type: ${n.type}`, `${k}.status: ${n.status}`, `${k}.version: ${n.version}`, `${k}.mysql_version: ${n.mysql}`);
    lines.push(`${k}.startphase: ${n.phase}`, `${k}.dynamic_id: ${n.dynamic}`, `${k}.node_group: ${n.group}`, `${k}.connect_count: ${n.connects}`);
    lines.push(`${k}.address: ${n.address}`);
    if (n.single !== null) lines.push(`${k}.is_single_user: ${n.single}`);
  }
  const body = applyTwists(lines, list, ':');
  return Buffer.from(`node status\nnodes: ${count}\n${body.map((l) => `${l}\n`).join('')}\n`, 'latin1');
}

const chunking = fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 12 });

test('get status fast path: replies as the server prints them are read by it, and read exactly as line by line', () => {
  fc.assert(
    fc.property(fc.uniqueArray(nodeArb, { selector: (n) => n.id, minLength: 1, maxLength: 30 }), chunking, (nodes, chunks) => {
      const bytes = statusReply(nodes, [], nodes.length);
      const fast = statusOutcome(bytes, true, chunks);
      assert.deepEqual(fast.frames, statusOutcome(bytes, false).frames);
      // Everything but the two head lines and the empty line fits the fast path when chunks are not tiny.
      if (Math.min(...chunks) >= 200) assert.ok(fast.took > 0, 'the fast path read nothing');
    }),
    { numRuns: 300, seed: 1101 },
  );
  const block = (id: number): NodeSpec => ({ id, type: 'NDB', status: 'STARTED', version: 525315, mysql: 525315, phase: 0, dynamic: id, group: 0, connects: 1, address: '10.0.0.12', single: '0' });
  const twice = statusReply([block(2), block(200), block(3), block(200)], [], 4);
  const repeated = statusOutcome(twice, true);
  assert.deepEqual(repeated.frames, statusOutcome(twice, false).frames);
  assert.match(JSON.stringify(repeated.frames), /node listed twice in get status: node 200/, 'a node block seen again is refused by the fast path too');
  const one = statusReply([{ id: 2, type: 'NDB', status: 'STARTED', version: 525315, mysql: 525315, phase: 0, dynamic: -1, group: 0, connects: 1, address: '10.0.0.12', single: '0' }], [], 1);
  const head = 'node status\nnodes: 1\n'.length;
  assert.equal(statusOutcome(one, true).took, one.length - head - 1, 'every node line of a reply as the server prints it is read in one pass');
});

test('get status fast path: a node block cut between two chunks is still read by it after the cut', () => {
  const node = (id: number): NodeSpec => ({ id, type: 'NDB', status: 'STARTED', version: 525315, mysql: 525315, phase: 0, dynamic: id, group: 0, connects: 1, address: '10.0.0.12', single: '0' });
  const bytes = statusReply([node(2), node(3)], [], 2);
  const text = bytes.toString('latin1');
  const head = 'node status\nnodes: 2\n'.length;
  // The first chunk ends after node 2's version line; the second holds the rest of its block, then node 3's.
  const cut = text.indexOf('node.2.mysql_version');
  const out = statusOutcome(bytes, true, [cut, bytes.length]);
  assert.deepEqual(out.frames, statusOutcome(bytes, false).frames);
  assert.equal(out.took, bytes.length - head - 1, 'the lines after the cut continue the block in the fast path');
});

test('get status fast path: unusual, malformed and reordered lines give the same nodes or the same error', () => {
  fc.assert(
    fc.property(fc.uniqueArray(nodeArb, { selector: (n) => n.id, minLength: 1, maxLength: 12 }), twists, fc.integer({ min: -1, max: 1 }), chunking, (nodes, list, off, chunks) => {
      const bytes = statusReply(nodes, list, nodes.length + off);
      assert.deepEqual(statusOutcome(bytes, true, chunks).frames, statusOutcome(bytes, false).frames);
    }),
    { numRuns: 1500, seed: 1102 },
  );
});

/** Catalogue types with fields, one without (data=), SingleUser (a field named `type`), and one this version does not know. */
const TYPE_IDS = [...EVENT_TYPES.keys()];

const recordArb = fc.record({
  type: fc.oneof(fc.constantFrom(...TYPE_IDS), fc.constantFrom(35, 36, 52, 12, 999)),
  source: fc.integer({ min: 1, max: 255 }),
  values: fc.array(fc.oneof(fc.integer({ min: -2_147_483_648, max: 4_294_967_295 }), fc.nat({ max: 9 })), { minLength: 12, maxLength: 12 }),
  twist: twists,
  ping: fc.boolean(),
});

type RecordSpec = typeof recordArb extends fc.Arbitrary<infer T> ? T : never;

function recordLines(r: RecordSpec): string[] {
  const spec = EVENT_TYPES.get(r.type);
  const lines = [`type=${r.type}`, 'time=0', `source_nodeid=${r.source}`];
  if (spec?.fields) spec.fields.forEach((f, i) => lines.push(`${f.name}=${r.values[i]}`));
  else if (spec) lines.push(`data=${r.values.slice(0, 3).map((v) => `${v >>> 0} `).join('')}`);
  else lines.push(`alpha=${r.values[0]}`, 'beta=text');
  return applyTwists(lines, r.twist, '=');
}

function eventStream(records: readonly RecordSpec[], cutLast: boolean): Buffer {
  const parts = ['listen event\nresult: 0\n\n'];
  records.forEach((r, i) => {
    if (r.ping) parts.push('<PING>\n');
    const lines = recordLines(r);
    parts.push(`log event reply\n${lines.map((l) => `${l}\n`).join('')}${cutLast && i === records.length - 1 ? '' : '\n'}`);
  });
  return Buffer.from(parts.join(''), 'latin1');
}

test('event fast path: records as the server prints them are read by it, and read exactly as line by line', () => {
  fc.assert(
    fc.property(fc.array(recordArb.map((r) => ({ ...r, twist: [] })), { minLength: 1, maxLength: 20 }), chunking, (records, chunks) => {
      const bytes = eventStream(records, false);
      const fast = eventsOutcome(bytes, true, chunks);
      assert.deepEqual(fast.frames, eventsOutcome(bytes, false).frames);
      const fastTypes = records.filter((r) => EVENT_TYPES.get(r.type)?.fields && r.type !== 52).length;
      if (fastTypes > 0 && Math.min(...chunks) >= 200) assert.ok(fast.took > 0, 'the fast path read no record');
    }),
    { numRuns: 300, seed: 1103 },
  );
});

test('event fast path: unusual, malformed, cut and reordered records give the same events, errors and pings', () => {
  fc.assert(
    fc.property(fc.array(recordArb, { minLength: 1, maxLength: 10 }), fc.boolean(), chunking, (records, cutLast, chunks) => {
      const bytes = eventStream(records, cutLast);
      assert.deepEqual(eventsOutcome(bytes, true, chunks).frames, eventsOutcome(bytes, false).frames);
    }),
    { numRuns: 1500, seed: 1104 },
  );
});

/** Arbitrary byte damage: the fast paths must stop where the slow path would fail, and fail the same. */
const damage = fc.array(
  fc.record({ at: fc.nat(), kind: fc.constantFrom('flip', 'insert', 'delete'), byte: fc.constantFrom(10, 13, 32, 9, 45, 48, 57, 58, 61, 46, 0, 255, 110) }),
  { minLength: 1, maxLength: 4 },
);

function damaged(bytes: Buffer, list: ReadonlyArray<{ at: number; kind: string; byte: number }>): Buffer {
  let out = bytes;
  for (const { at, kind, byte } of list) {
    const i = at % (out.length + 1);
    if (kind === 'flip' && out.length > 0) {
      out = Buffer.from(out);
      out[i % out.length] = byte;
    } else if (kind === 'insert') out = Buffer.concat([out.subarray(0, i), Buffer.from([byte]), out.subarray(i)]);
    else out = Buffer.concat([out.subarray(0, i), out.subarray(i + 1)]);
  }
  return out;
}

test('fast paths on damaged bytes: the same frames, nodes and errors as line by line', () => {
  fc.assert(
    fc.property(fc.uniqueArray(nodeArb, { selector: (n) => n.id, minLength: 1, maxLength: 6 }), damage, chunking, (nodes, list, chunks) => {
      const bytes = damaged(statusReply(nodes, [], nodes.length), list);
      assert.deepEqual(statusOutcome(bytes, true, chunks).frames, statusOutcome(bytes, false).frames);
    }),
    { numRuns: 1500, seed: 1105 },
  );
  fc.assert(
    fc.property(fc.array(recordArb.map((r) => ({ ...r, twist: [] })), { minLength: 1, maxLength: 6 }), damage, chunking, (records, list, chunks) => {
      const bytes = damaged(eventStream(records, false), list);
      assert.deepEqual(eventsOutcome(bytes, true, chunks).frames, eventsOutcome(bytes, false).frames);
    }),
    { numRuns: 1500, seed: 1106 },
  );
});

test('fast paths keep the limits: a line, record or reply over them fails as it does line by line', () => {
  const long = Buffer.from(`node status\nnodes: 1\nnode.1.type: NDB\nnode.1.status: STARTED\nnode.1.version: 1\nnode.1.mysql_version: 1\nnode.1.startphase: 0\nnode.1.dynamic_id: 1\nnode.1.node_group: 0\nnode.1.connect_count: 1\nnode.1.address: ${'a'.repeat(300)}\n\n`, 'latin1');
  assert.deepEqual(statusOutcome(long, true).frames, statusOutcome(long, false).frames);
  assert.match(JSON.stringify(statusOutcome(long, true).frames), /line too long/);

  const trans = Buffer.from(`listen event\nresult: 0\n\n${recordLines({ type: 35, source: 2, values: Array.from({ length: 12 }, (_, i) => i), twist: [], ping: false }).map((l) => `${l}\n`).join('')}\n`, 'latin1');
  const withHeader = Buffer.from(trans.toString('latin1').replace('\n\ntype=', '\n\nlog event reply\ntype='), 'latin1');
  const narrow = { ...LIMITS, maxRecordLines: 12 };
  const out = eventsOutcome(withHeader, true, undefined, narrow);
  assert.deepEqual(out.frames, eventsOutcome(withHeader, false, undefined, narrow).frames);
  assert.match(JSON.stringify(out.frames), /too many lines/);
  assert.equal(eventsOutcome(withHeader, true, undefined, { ...LIMITS, maxRecordLines: 13 }).took, 1, 'thirteen lines fit a limit of thirteen');

  const nodes = Array.from({ length: 255 }, (_, i) => ({ id: i + 1, type: 'NDB', status: 'STARTED', version: 1, mysql: 1, phase: 0, dynamic: 1, group: 0, connects: 1, address: '10.0.0.1', single: '0' }));
  const big = statusReply(nodes, [], 255);
  const small = { ...LIMITS, maxReplyBytes: 20_000 };
  const fast = statusOutcome(big, true, [4096], small);
  assert.deepEqual(fast.frames, statusOutcome(big, false, undefined, small).frames);
  assert.match(JSON.stringify(fast.frames), /reply too large/);
  assert.ok(fast.took > 10_000 && fast.took < 20_000, `the fast path stopped at the limit (took ${fast.took})`);
});
