import { NODE_SECTION, SECTION_TYPES, type ClusterConfig, type ConfigParams } from './cluster-config.js';
import { ENTRY_INT, ENTRY_INT64, ENTRY_STRING, MAGIC_V2 } from './decode.js';
import { paramByKey, paramByName, type ConfigSectionType, type ConfigValue, type KeyScope } from './params.js';

/** MySQL's base64 encoder puts an LF after every 76 output characters (spec §4.18); they count in Content-Length. */
const BASE64_LINE = 76;

type Entries = Map<number, ConfigValue>;

/** Keys that identify a section and so never go into a default section. */
const IDENTITY_KEYS: Record<KeyScope, readonly number[]> = { node: [3], connection: [400, 401], system: [] };

/** ClusterConfig → packed v2 bytes, as ndb_mgmd lays them out (spec §4.18.1). */
export function encodePackedConfig(config: ClusterConfig): Buffer {
  const nodes = [...config.nodes].sort((a, b) => a.nodeId - b.nodeId);
  const nodeEntries = nodes.map((n) => ({ type: NODE_SECTION[n.type], entries: entriesOf('node', n.params) }));
  const connEntries = config.connections.map((c) => ({ type: c.type, entries: entriesOf('connection', c.params, c.type) }));
  const defaults = (['DB', 'API', 'MGM', 'TCP', 'SHM'] as const).map((t) => {
    const members = [...nodeEntries, ...connEntries].filter((s) => s.type === t).map((s) => s.entries);
    return commonEntries(members, IDENTITY_KEYS[t === 'TCP' || t === 'SHM' ? 'connection' : 'node']);
  });
  const defaultOf = (t: ConfigSectionType): Entries => defaults[SECTION_TYPES[t] - 1]!;
  const system: Entries = new Map<number, ConfigValue>([
    [1, config.primaryMgmd],
    [2, config.generation],
    [3, config.name],
    ...entriesOf('system', config.system),
  ]);
  const sections: number[][] = [
    ...defaults.map((d, i) => section(i + 1, d, 'node')),
    section(6, system, 'system'),
    ...nodeEntries.map((n) => section(SECTION_TYPES[n.type], difference(n.entries, defaultOf(n.type), IDENTITY_KEYS.node), 'node')),
    ...connEntries.map((c) => section(SECTION_TYPES[c.type], difference(c.entries, defaultOf(c.type), IDENTITY_KEYS.connection), 'connection')),
  ];
  const count = (t: string): number => nodeEntries.filter((n) => n.type === t).length;
  const header = [2, 5, count('DB'), count('API'), count('MGM'), connEntries.length];
  // A large cluster has tens of thousands of connection sections: words go straight into the buffer.
  const total = 2 + 1 + header.length + sections.reduce((n, s) => n + s.length, 0) + 1;
  const out = Buffer.alloc(total * 4);
  out.write(MAGIC_V2, 0, 'latin1');
  let at = 8;
  const put = (w: number): void => {
    out.writeUInt32BE(w >>> 0, at);
    at += 4;
  };
  put(total);
  header.forEach(put);
  for (const s of sections) s.forEach(put);
  let xor = 0;
  for (let i = 0; i < out.length - 4; i += 4) xor ^= out.readUInt32BE(i);
  out.writeUInt32BE(xor >>> 0, out.length - 4);
  return out;
}

export function encodeConfigBase64(config: ClusterConfig): string {
  const b64 = encodePackedConfig(config).toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += BASE64_LINE) lines.push(b64.slice(i, i + BASE64_LINE));
  return lines.join('\n');
}

function keyOf(scope: KeyScope, name: string, section?: ConfigSectionType): number {
  const known = paramByName(scope, name, section);
  if (known) return known.key;
  const n = Number(name);
  if (!Number.isInteger(n) || n < 0 || n > 0x0fffffff) throw new RangeError(`unknown configuration parameter ${name}`);
  return n;
}

function entriesOf(scope: KeyScope, params: ConfigParams, section?: ConfigSectionType): Entries {
  return new Map(Object.entries(params).map(([name, v]) => [keyOf(scope, name, section), v]));
}

/**
 * The default section of a type: for each key every member has, its most common value (ties: the later
 * member's, which is what the reference blob shows for DataDir). The server's own choice is not documented;
 * any choice decodes the same.
 */
function commonEntries(members: Entries[], identity: readonly number[]): Entries {
  const out: Entries = new Map();
  if (members.length === 0) return out;
  for (const key of members[0]!.keys()) {
    if (identity.includes(key) || !members.every((m) => m.has(key))) continue;
    const counts = new Map<ConfigValue, number>();
    let best: ConfigValue = members[0]!.get(key)!;
    let bestCount = 0;
    for (const m of members) {
      const v = m.get(key)!;
      const c = (counts.get(v) ?? 0) + 1;
      counts.set(v, c);
      if (c >= bestCount) {
        best = v;
        bestCount = c;
      }
    }
    out.set(key, best);
  }
  return out;
}

function difference(own: Entries, defaults: Entries, identity: readonly number[]): Entries {
  return new Map([...own].filter(([k, v]) => identity.includes(k) || defaults.get(k) !== v || !defaults.has(k)));
}

function section(type: number, entries: Entries, scope: KeyScope): number[] {
  const body: number[] = [];
  const sorted = [...entries].sort(([a], [b]) => a - b);
  for (const [key, value] of sorted) body.push(...entry(scope, key, value));
  return [body.length + 3, sorted.length, type, ...body];
}

function entry(scope: KeyScope, key: number, value: ConfigValue): number[] {
  const type = paramByKey(scope, key)?.type ?? inferType(value);
  if (type === 'string') {
    const bytes = Buffer.from(String(value), 'utf8');
    const len = bytes.length + 1;
    const padded = Buffer.alloc(Math.ceil(len / 4) * 4);
    bytes.copy(padded);
    const words: number[] = [];
    for (let i = 0; i < padded.length; i += 4) words.push(padded.readUInt32BE(i));
    return [(ENTRY_STRING << 28) | key, len, ...words];
  }
  if (type === 'int64') {
    const v = BigInt(value);
    return [(ENTRY_INT64 << 28) | key, Number(v >> 32n), Number(v & 0xffffffffn)];
  }
  return [(ENTRY_INT << 28) | key, Number(value)];
}

/** A key the table does not know keeps the type its value shows (decode turns int64 past 2^53 into digits). */
function inferType(value: ConfigValue): 'int' | 'int64' | 'string' {
  if (typeof value === 'number') return value > 0xffffffff ? 'int64' : 'int';
  return /^\d+$/.test(value) && BigInt(value) > BigInt(Number.MAX_SAFE_INTEGER) ? 'int64' : 'string';
}
