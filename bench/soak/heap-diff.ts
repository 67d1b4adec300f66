import { readFileSync } from 'node:fs';

/**
 * `node --import tsx bench/soak/heap-diff.ts before.heapsnapshot after.heapsnapshot`: what one process's heap
 * gained between two V8 heap snapshots of it (`npm run soak -- --heap-snapshots DIR` writes one a cycle, at the
 * same point of each, of the engine's process and of the page: `cycle-N`, `page-cycle-N`). Every object is charged to the path by which it is first reached from the roots (a shortest
 * path, weak references left out), so a structure's size is what hangs below it on that tree; the paths whose size
 * changed most name what grew. V8 keeps an object's id from one snapshot to the next, so the objects of `after`
 * that `before` lacks were made in between and are still alive; they are listed by constructor too.
 */
interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

interface Tally {
  bytes: number;
  objects: number;
}

interface Analysis {
  ids: Set<number>;
  /** Bytes below each retaining path of at most MAX_DEPTH steps, for the paths holding at least MIN_BYTES. */
  paths: Map<string, number>;
  /** Objects `before` lacks (none when there is no `before`), by type and constructor. */
  fresh: Map<string, Tally>;
  /** A page's stores: bytes of data below each of their properties (`pageStores`); empty for the engine. */
  stores: Map<string, number>;
  total: number;
}

const MAX_DEPTH = 16;
const MIN_BYTES = 16 * 1024;

const add = (m: Map<string, Tally>, key: string, bytes: number): void => {
  const t = m.get(key) ?? { bytes: 0, objects: 0 };
  m.set(key, { bytes: t.bytes + bytes, objects: t.objects + 1 });
};

function analyse(file: string, before: Set<number> | null): Analysis {
  const s = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const { meta } = s.snapshot;
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const at = (fields: string[], name: string): number => {
    const i = fields.indexOf(name);
    if (i < 0) throw new Error(`${file}: no ${name} in the snapshot's fields`);
    return i;
  };
  const [typeAt, nameAt, idAt, sizeAt, edgeCountAt] = [at(meta.node_fields, 'type'), at(meta.node_fields, 'name'), at(meta.node_fields, 'id'), at(meta.node_fields, 'self_size'), at(meta.node_fields, 'edge_count')];
  const [eTypeAt, eNameAt, eToAt] = [at(meta.edge_fields, 'type'), at(meta.edge_fields, 'name_or_index'), at(meta.edge_fields, 'to_node')];
  const count = s.nodes.length / nf;
  const field = (n: number, at: number): number => s.nodes[n * nf + at] ?? 0;
  const label = (n: number): string => `${meta.node_types[0][field(n, typeAt)]}:${(s.strings[field(n, nameAt)] ?? '').slice(0, 50)}`;

  const firstEdge = new Float64Array(count + 1);
  for (let n = 0; n < count; n += 1) firstEdge[n + 1] = (firstEdge[n] ?? 0) + field(n, edgeCountAt) * ef;
  const properties = (n: number): Map<string, number> => {
    const out = new Map<string, number>();
    for (let e = firstEdge[n] ?? 0; e < (firstEdge[n + 1] ?? 0); e += ef) {
      if (meta.edge_types[0][s.edges[e + eTypeAt] ?? 0] === 'property') out.set(String(s.strings[s.edges[e + eNameAt] ?? 0]), (s.edges[e + eToAt] ?? 0) / nf);
    }
    return out;
  };
  const stores = pageStores(count, (n) => meta.node_types[0][field(n, typeAt)] ?? '', properties, (n) => field(n, sizeAt), (n, visit) => {
    for (let e = firstEdge[n] ?? 0; e < (firstEdge[n + 1] ?? 0); e += ef) if (meta.edge_types[0][s.edges[e + eTypeAt] ?? 0] !== 'weak') visit((s.edges[e + eToAt] ?? 0) / nf);
  });
  const parent = new Int32Array(count).fill(-1);
  const step = new Array<string>(count);
  const order = [0];
  parent[0] = 0;
  for (let q = 0; q < order.length; q += 1) {
    const n = order[q] ?? 0;
    for (let e = firstEdge[n] ?? 0; e < (firstEdge[n + 1] ?? 0); e += ef) {
      const kind = meta.edge_types[0][s.edges[e + eTypeAt] ?? 0];
      const to = (s.edges[e + eToAt] ?? 0) / nf;
      if (kind === 'weak' || parent[to] !== -1) continue;
      parent[to] = n;
      const name = s.edges[e + eNameAt] ?? 0;
      // A global handle's name begins with its index ("117 / DevTools console"), which differs between snapshots.
      step[to] = kind === 'element' || kind === 'hidden' ? `[${name}]` : String(s.strings[name]).replace(/^\d+ \/ /, '');
      order.push(to);
    }
  }

  const below = new Float64Array(count);
  for (let q = order.length - 1; q > 0; q -= 1) {
    const n = order[q] ?? 0;
    below[n] = (below[n] ?? 0) + field(n, sizeAt);
    const p = parent[n] ?? 0;
    below[p] = (below[p] ?? 0) + (below[n] ?? 0);
  }
  const depth = new Int32Array(count);
  const path = new Array<string>(count);
  path[0] = '';
  const ids = new Set<number>();
  const paths = new Map<string, number>();
  const fresh = new Map<string, Tally>();
  for (const n of order) {
    ids.add(field(n, idAt));
    if (n === 0) continue;
    const p = parent[n] ?? 0;
    depth[n] = (depth[p] ?? 0) + 1;
    if (before && !before.has(field(n, idAt))) add(fresh, label(n), field(n, sizeAt));
    if ((depth[n] ?? 0) > MAX_DEPTH || (below[n] ?? 0) < MIN_BYTES || path[p] === undefined) continue;
    // Anchored at the engine (or the page's window), and indices left out: what leads to it, and where, differs from
    // one snapshot to the next (the page's URL names a port that changes from run to run).
    const anchor = label(n) === 'object:Engine' ? 'engine' : label(n).startsWith('object:Window [JSGlobalObject]') ? 'window' : null;
    path[n] = anchor ?? `${path[p]} -> ${/^\[?\d+\]?$/.test(step[n] ?? '') ? '*' : (step[n] ?? '').slice(0, 60)} (${label(n)})`;
    paths.set(path[n], (paths.get(path[n]) ?? 0) + (below[n] ?? 0));
  }
  return { ids, paths, fresh, stores, total: below[0] ?? 0 };
}

/** What plain data can hold: no code, closures or native objects, so a state's size is its own data. */
const DATA_TYPES = new Set(['object', 'array', 'string', 'concatenated string', 'sliced string', 'number']);

/**
 * The page's stores, by what they hold: the data reachable from each property of the app store's state (an object
 * with `live` and `ui`) and of its `live`, and from the incidents store's (`incidents`, `openId`), first claimed
 * first. Shortest paths in a page's snapshot wander between the DevTools handles, the DOM and the window from one
 * snapshot to the next; these owners do not.
 */
function pageStores(count: number, type: (n: number) => string, properties: (n: number) => Map<string, number>, size: (n: number) => number, each: (n: number, visit: (to: number) => void) => void): Map<string, number> {
  const out = new Map<string, number>();
  const seen = new Set<number>();
  const data = (root: number): number => {
    let bytes = 0;
    const stack = [root];
    for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
      if (seen.has(n) || !DATA_TYPES.has(type(n))) continue;
      seen.add(n);
      bytes += size(n);
      each(n, (to) => stack.push(to));
    }
    return bytes;
  };
  for (let n = 0; n < count; n += 1) {
    if (type(n) !== 'object') continue;
    const p = properties(n);
    const store = p.has('live') && p.has('ui') ? 'app' : p.has('incidents') && p.has('openId') ? 'incidents' : null;
    if (!store) continue;
    seen.add(n);
    const live = store === 'app' ? p.get('live') : undefined;
    if (live !== undefined) {
      seen.add(live);
      for (const [k, v] of properties(live)) out.set(`${store}.live.${k}`, (out.get(`${store}.live.${k}`) ?? 0) + data(v));
    }
    for (const [k, v] of p) if (v !== live) out.set(`${store}.${k}`, (out.get(`${store}.${k}`) ?? 0) + data(v));
  }
  return out;
}

const [beforeFile, afterFile] = process.argv.slice(2);
if (!beforeFile || !afterFile) throw new Error('usage: heap-diff.ts before.heapsnapshot after.heapsnapshot');
const a = analyse(beforeFile, null);
const b = analyse(afterFile, a.ids);
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0).padStart(7)} kB`;
console.log(`reachable: ${kb(a.total)} -> ${kb(b.total)}`);

// A change shows in every path above it too: of a run of equal changes, the longest path names what grew.
const change = [...new Set([...a.paths.keys(), ...b.paths.keys()])].map((p) => ({ p, d: (b.paths.get(p) ?? 0) - (a.paths.get(p) ?? 0) }));
console.log('\nretaining paths whose size changed most (before -> after):');
for (const { p, d } of change.filter((c) => Math.abs(c.d) >= 64 * 1024).sort((x, y) => Math.abs(y.d) - Math.abs(x.d)).slice(0, 40)) {
  console.log(`${kb(d)}  ${kb(a.paths.get(p) ?? 0)} -> ${kb(b.paths.get(p) ?? 0)}  ${p}`);
}
if (b.stores.size > 0) {
  console.log("\nthe page's stores, data below each property (before -> after):");
  for (const k of [...new Set([...a.stores.keys(), ...b.stores.keys()])].filter((k) => Math.max(a.stores.get(k) ?? 0, b.stores.get(k) ?? 0) >= 1024)) {
    console.log(`${kb((b.stores.get(k) ?? 0) - (a.stores.get(k) ?? 0))}  ${kb(a.stores.get(k) ?? 0)} -> ${kb(b.stores.get(k) ?? 0)}  ${k}`);
  }
}
console.log('\nmade between the two and still alive, by constructor:');
for (const [k, t] of [...b.fresh].sort((x, y) => y[1].bytes - x[1].bytes).slice(0, 25)) console.log(`${kb(t.bytes)} ${String(t.objects).padStart(8)}  ${k}`);
