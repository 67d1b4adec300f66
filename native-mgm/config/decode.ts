import { ConfigFormatError } from '../errors.js';
import { NODE_SECTION, type ClusterConfig, type ConfigConnection, type ConfigNode, type ConfigNodeType, type ConfigParams } from './cluster-config.js';
import { keyName, type ConfigValue, type KeyScope } from './params.js';

export const MAGIC_V2 = 'NDBCONF2';
const MAGIC_V1 = 'NDBCONFV';
const HEADER_WORDS = 7;
const DEFAULT_SECTIONS = 5;
/** Entry value types: the key word's top 4 bits. */
export const ENTRY_INT = 1;
export const ENTRY_STRING = 2;
export const ENTRY_INT64 = 4;

type Entries = Map<number, ConfigValue>;
interface Section {
  type: number;
  entries: Entries;
}

/** Reads big-endian words within [pos, end); every read is bounds-checked so bad input is a typed error. */
class WordReader {
  constructor(
    readonly buf: Buffer,
    public pos: number,
    public end: number,
  ) {}

  word(what: string): number {
    if (this.pos + 4 > this.end) throw new ConfigFormatError(`${what} runs past the end (byte ${this.pos})`);
    const v = this.buf.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  bytes(n: number, what: string): Buffer {
    if (this.pos + n > this.end) throw new ConfigFormatError(`${what} runs past the end (byte ${this.pos}, ${n} bytes)`);
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The body of `get config reply` (base64 with the server's line breaks) → bytes. */
export function decodeConfigBase64(text: string): Buffer {
  const compact = text.replace(/\r?\n/g, '');
  if (!BASE64.test(compact) || compact.length % 4 !== 0) throw new ConfigFormatError('body is not base64');
  return Buffer.from(compact, 'base64');
}

export function decodeConfig(text: string): ClusterConfig {
  return decodePackedConfig(decodeConfigBase64(text));
}

/** Packed v2 configuration bytes → ClusterConfig; anything malformed is a ConfigFormatError naming it. */
export function decodePackedConfig(bytes: Buffer): ClusterConfig {
  if (bytes.length < 8) throw new ConfigFormatError(`too short for a configuration (${bytes.length} bytes)`);
  const magic = bytes.subarray(0, 8).toString('latin1');
  if (magic === MAGIC_V1) throw new ConfigFormatError('v1 configuration (NDBCONFV): only v2 (NDBCONF2) is supported; ask with get config_v2');
  if (magic !== MAGIC_V2) throw new ConfigFormatError(`wrong magic ${JSON.stringify(magic)}, expected NDBCONF2`);
  if (bytes.length % 4 !== 0) throw new ConfigFormatError(`length ${bytes.length} is not a whole number of words`);
  const r = new WordReader(bytes, 8, bytes.length);
  const totalWords = r.word('header');
  if (totalWords * 4 !== bytes.length) throw new ConfigFormatError(`header says ${totalWords} words, body has ${bytes.length / 4}`);
  let xor = 0;
  for (let i = 0; i < bytes.length - 4; i += 4) xor ^= bytes.readUInt32BE(i);
  const checksum = bytes.readUInt32BE(bytes.length - 4);
  if (xor >>> 0 !== checksum) throw new ConfigFormatError(`checksum mismatch (computed ${xor >>> 0}, stored ${checksum})`);
  r.end = bytes.length - 4;
  const version = r.word('header');
  if (version !== 2) throw new ConfigFormatError(`format version ${version}, expected 2`);
  const defaults = r.word('header');
  if (defaults !== DEFAULT_SECTIONS) throw new ConfigFormatError(`${defaults} default sections, expected ${DEFAULT_SECTIONS}`);
  const counts = { DB: r.word('header'), API: r.word('header'), MGM: r.word('header') };
  const connectionCount = r.word('header');
  if (r.pos !== 8 + HEADER_WORDS * 4) throw new ConfigFormatError('header');

  const defaultSections = [1, 2, 3, 4, 5].map((type) => expectType(readSection(r), [type], 'default section'));
  const system = expectType(readSection(r), [6], 'system section');
  const nodeCount = counts.DB + counts.API + counts.MGM;
  if (nodeCount > 256 || connectionCount > 256 * 256) throw new ConfigFormatError(`implausible counts: ${nodeCount} nodes, ${connectionCount} connections`);
  const nodes: ConfigNode[] = [];
  const seen = { DB: 0, API: 0, MGM: 0 };
  for (let i = 0; i < nodeCount; i++) {
    const s = expectType(readSection(r), [1, 2, 3], `node section ${i + 1}`);
    const type = (['NDB', 'API', 'MGM'] as const)[s.type - 1] as ConfigNodeType;
    seen[NODE_SECTION[type] as 'DB' | 'API' | 'MGM']++;
    nodes.push(toNode(type, merged(defaultSections[s.type - 1]!.entries, s.entries), i));
  }
  for (const k of ['DB', 'API', 'MGM'] as const) {
    if (seen[k] !== counts[k]) throw new ConfigFormatError(`header says ${counts[k]} ${k} sections, found ${seen[k]}`);
  }
  const connections: ConfigConnection[] = [];
  for (let i = 0; i < connectionCount; i++) {
    const s = expectType(readSection(r), [4, 5], `connection section ${i + 1}`);
    connections.push(toConnection(s.type === 4 ? 'TCP' : 'SHM', merged(defaultSections[s.type - 1]!.entries, s.entries), i));
  }
  if (r.pos !== r.end) throw new ConfigFormatError(`${(r.end - r.pos) / 4} words after the last section`);
  const sys = system.entries;
  const rest = named('system', sys, [1, 2, 3]);
  return {
    name: stringValue(sys.get(3) ?? '', 'system Name'),
    generation: intValue(sys.get(2) ?? 0, 'ConfigGenerationNumber'),
    primaryMgmd: intValue(sys.get(1) ?? 0, 'PrimaryMGMNode'),
    system: rest,
    nodes,
    connections,
  };
}

function readSection(r: WordReader): Section {
  const start = r.pos;
  const length = r.word('section header');
  const count = r.word('section header');
  const type = r.word('section header');
  if (length < 3) throw new ConfigFormatError(`section at byte ${start} has length ${length} words`);
  const end = start + length * 4;
  if (end > r.end) throw new ConfigFormatError(`section at byte ${start} (${length} words) runs past the end`);
  const inner = new WordReader(r.buf, r.pos, end);
  const entries: Entries = new Map();
  for (let i = 0; i < count; i++) {
    const kw = inner.word(`entry ${i + 1} of section at byte ${start}`);
    const key = kw & 0x0fffffff;
    const vt = kw >>> 28;
    entries.set(key, readValue(inner, vt, key, start));
  }
  if (inner.pos !== end) throw new ConfigFormatError(`section at byte ${start}: ${count} entries end at byte ${inner.pos}, the section at ${end}`);
  r.pos = end;
  return { type, entries };
}

function readValue(r: WordReader, vt: number, key: number, section: number): ConfigValue {
  const what = `key ${key} in section at byte ${section}`;
  switch (vt) {
    case ENTRY_INT:
      return r.word(what);
    case ENTRY_INT64: {
      const hi = r.word(what);
      const lo = r.word(what);
      const v = (BigInt(hi) << 32n) | BigInt(lo);
      return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
    }
    case ENTRY_STRING: {
      const len = r.word(what);
      if (len === 0) throw new ConfigFormatError(`${what}: string of length 0 (the NUL is counted)`);
      const padded = Math.ceil(len / 4) * 4;
      if (padded > r.end - r.pos) throw new ConfigFormatError(`${what}: string of ${len} bytes runs past the section`);
      const b = r.bytes(padded, what);
      if (b[len - 1] !== 0) throw new ConfigFormatError(`${what}: string not NUL-terminated`);
      return b.subarray(0, len - 1).toString('utf8');
    }
    default:
      throw new ConfigFormatError(`${what}: unknown value type ${vt}`);
  }
}

function expectType(s: Section, types: number[], what: string): Section {
  if (!types.includes(s.type)) throw new ConfigFormatError(`${what} has type ${s.type}, expected ${types.join(' or ')}`);
  return s;
}

function merged(defaults: Entries, own: Entries): Entries {
  return new Map([...defaults, ...own]);
}

function named(scope: KeyScope, entries: Entries, skip: number[] = []): ConfigParams {
  const out: ConfigParams = {};
  for (const [k, v] of [...entries].sort(([a], [b]) => a - b)) if (!skip.includes(k)) out[keyName(scope, k)] = v;
  return out;
}

function toNode(type: ConfigNodeType, e: Entries, i: number): ConfigNode {
  const id = e.get(3);
  if (typeof id !== 'number' || id < 1 || id > 255) throw new ConfigFormatError(`node section ${i + 1} has no valid NodeId`);
  const group = e.get(185);
  return {
    nodeId: id,
    type,
    hostname: typeof e.get(5) === 'string' ? (e.get(5) as string) : '',
    nodeGroup: type === 'NDB' && typeof group === 'number' ? group : null,
    params: named('node', e),
  };
}

function toConnection(type: 'TCP' | 'SHM', e: Entries, i: number): ConfigConnection {
  const n1 = e.get(400);
  const n2 = e.get(401);
  if (typeof n1 !== 'number' || typeof n2 !== 'number') throw new ConfigFormatError(`connection section ${i + 1} lacks NodeId1/NodeId2`);
  return { type, nodeId1: n1, nodeId2: n2, params: named('connection', e) };
}

function intValue(v: ConfigValue, what: string): number {
  if (typeof v !== 'number') throw new ConfigFormatError(`${what} is not a number`);
  return v;
}

function stringValue(v: ConfigValue, what: string): string {
  if (typeof v !== 'string') throw new ConfigFormatError(`${what} is not a string`);
  return v;
}
