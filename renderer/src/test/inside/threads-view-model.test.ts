import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CELL_NONE, decodeCells, cellPercent, type NdbinfoNode, type NdbinfoThread, type ThreadSeries } from '../../contract.js';
import { applyDelta, applySnapshot, EMPTY_CLUSTER } from '../../store/cluster-data.js';
import { ThreadGrid } from '../../view-model/inside/thread-grid.js';
import { heatTable } from '../../view-model/inside/heat-colours.js';
import { nodeView, snapshot } from '../fixtures.js';
import { arrangeLines, hottestText, kindAverages, kindsOf, latestThreads, sameThreads, threadKey, threadLines, topThreads } from '../../view-model/inside/threads.js';

const thread = (thrNo: number, name: string | null, busy: number): NdbinfoThread => ({ thrNo, name, busy });

function node(nodeId: number, at: number, threads: Array<[string | null, number]>, stale = false): NdbinfoNode {
  const list = threads.map(([name, busy], i) => thread(i, name, busy));
  const hottest = list.reduce<NdbinfoThread | null>((a, b) => (!a || b.busy > a.busy ? b : a), null);
  return { nodeId, stale, threads: { at, threads: list, hottest: hottest && { thrNo: hottest.thrNo, name: hottest.name, busy: hottest.busy } }, redo: null, undo: null, sendBuffer: null, diskWrite: null, restart: null };
}

const T = 1_700_000_000_000;
const LAYOUT: Array<[string, number]> = [
  ['main', 5],
  ['rep', 2],
  ['ldm', 90],
  ['ldm', 96],
  ['tc', 40],
  ['tc', 42],
  ['recv', 22],
];

test('rows are named by kind and instance on their node; a kind run once has no number; no threads table names none', () => {
  const lines = threadLines([
    { nodeId: 3, thrNo: 2, name: 'ldm' },
    { nodeId: 2, thrNo: 3, name: 'ldm' },
    { nodeId: 2, thrNo: 0, name: 'main' },
    { nodeId: 2, thrNo: 2, name: 'ldm' },
    { nodeId: 2, thrNo: 7, name: null },
  ]);
  assert.deepEqual(
    lines.map((l) => [l.nodeId, l.label]),
    [
      [2, 'main'],
      [2, 'ldm 0'],
      [2, 'ldm 1'],
      [2, 'thread'],
      [3, 'ldm'],
    ],
  );
  assert.deepEqual(kindsOf(lines), ['ldm', 'main', 'thread']);
});

test('sorting by node keeps node and thread order; by hottest puts the node with the hottest thread first, its threads hottest first; the kind filter keeps one kind', () => {
  const lines = threadLines([2, 3].flatMap((nodeId) => LAYOUT.map(([name], thrNo) => ({ nodeId, thrNo, name }))));
  const heat = new Map<number, number>(lines.map((l) => [l.key, l.nodeId === 3 ? LAYOUT[l.thrNo]![1] : 10]));
  const byNode = arrangeLines(lines, 'node', null, (k) => heat.get(k)!);
  assert.deepEqual(
    byNode.slice(0, 3).map((l) => `${l.nodeId} ${l.label}`),
    ['2 main', '2 rep', '2 ldm 0'],
  );
  const hottest = arrangeLines(lines, 'hottest', null, (k) => heat.get(k)!);
  assert.deepEqual(
    hottest.slice(0, 4).map((l) => `${l.nodeId} ${l.label}`),
    ['3 ldm 1', '3 ldm 0', '3 tc 1', '3 tc 0'],
  );
  assert.equal(hottest.at(-1)?.nodeId, 2);
  const ldm = arrangeLines(lines, 'hottest', 'ldm', (k) => heat.get(k)!);
  assert.deepEqual(
    ldm.map((l) => `${l.nodeId} ${l.label}`),
    ['3 ldm 1', '3 ldm 0', '2 ldm 0', '2 ldm 1'],
  );
});

test('per-kind means per node, the hottest ten across nodes (stale nodes left out), and a tile\'s hottest thread', () => {
  const nodes = [node(2, T, LAYOUT), node(3, T, [['ldm', 99], ['ldm', 50], ['tc', 10]]), node(4, T, [['ldm', 100]], true)];
  assert.deepEqual(kindAverages(nodes), [
    {
      nodeId: 2,
      stale: false,
      kinds: [
        { kind: 'ldm', busy: 93 },
        { kind: 'tc', busy: 41 },
        { kind: 'recv', busy: 22 },
        { kind: 'main', busy: 5 },
        { kind: 'rep', busy: 2 },
      ],
    },
    { nodeId: 3, stale: false, kinds: [{ kind: 'ldm', busy: 74.5 }, { kind: 'tc', busy: 10 }] },
    { nodeId: 4, stale: true, kinds: [{ kind: 'ldm', busy: 100 }] },
  ]);
  const top = topThreads(nodes, 10);
  assert.equal(top.length, 10);
  assert.deepEqual(
    top.slice(0, 4).map((t) => `${t.nodeId} ${t.label} ${t.busy}`),
    ['3 ldm 0 99', '2 ldm 1 96', '2 ldm 0 90', '3 ldm 1 50'],
  );
  assert.ok(top.every((t) => t.nodeId !== 4));
  assert.equal(hottestText(nodes[0]), 'ldm 96 %');
  assert.equal(hottestText(nodes[2]), null, 'stale figures are not shown as current');
  assert.equal(hottestText(undefined), null);
});

test('the top ten of 144 nodes × 20 threads, ties included, is the first ten of them all sorted busiest first, named on their node', () => {
  const kinds: Array<string | null> = ['main', 'rep', 'ldm', 'ldm', 'ldm', 'ldm', 'query', 'query', 'tc', 'tc', 'recv', 'send', 'send', null, 'ldm', 'ldm', 'ldm', 'ldm', 'io', 'io'];
  // A few busy levels only, so many threads tie and the order among them (node, then thread number) decides.
  const nodes = Array.from({ length: 144 }, (_, i) => node(i + 1, T, kinds.map((k, thrNo) => [k, ((i * 31 + thrNo * 17) % 7) * 15 + (thrNo === 5 && i % 40 === 3 ? 6 : 0)])));
  const all = nodes.flatMap((n) => threadLines(n.threads!.threads.map((t) => ({ nodeId: n.nodeId, thrNo: t.thrNo, name: t.name }))).map((l) => ({ nodeId: n.nodeId, thrNo: l.thrNo, label: l.label, busy: n.threads!.threads[l.thrNo]!.busy })));
  const expected = all.sort((a, b) => b.busy - a.busy || a.nodeId - b.nodeId || a.thrNo - b.thrNo).slice(0, 10);
  assert.deepEqual(topThreads(nodes, 10), expected);
  assert.equal(expected[0]!.busy, 96, 'the few threads 6 points above the rest lead');
  assert.deepEqual(topThreads(nodes.slice(0, 1), 30).length, 20, 'fewer threads than asked: all of them');
});

test("the rows of the latest figures are made again only when a thread came, went or was renamed, not when figures moved", () => {
  const known = latestThreads([node(2, T, LAYOUT), node(3, T, LAYOUT)]);
  assert.deepEqual(known.slice(0, 3), [{ nodeId: 2, thrNo: 0, name: 'main' }, { nodeId: 2, thrNo: 1, name: 'rep' }, { nodeId: 2, thrNo: 2, name: 'ldm' }]);
  assert.ok(sameThreads(known, [node(2, T + 1000, LAYOUT.map(([k, b]) => [k, b / 2])), node(3, T + 1000, LAYOUT)]), 'new figures, same threads');
  assert.ok(!sameThreads(known, [node(2, T, LAYOUT)]), 'a node gone');
  assert.ok(!sameThreads(known, [node(2, T, LAYOUT), node(3, T, [...LAYOUT, ['send', 3]])]), 'a thread came');
  assert.ok(!sameThreads(known, [node(2, T, LAYOUT), node(3, T, LAYOUT.slice(1))]), 'a thread went');
  assert.ok(!sameThreads(known, [node(2, T, LAYOUT), node(3, T, LAYOUT.map(([k, b], i) => [i === 4 ? null : k, b]))]), 'a thread lost its name');
});

test('the grid takes the engine series in its buckets and moves on with pushed readings, each bucket its busiest', () => {
  const end = T / 1000 + 59;
  const grid = new ThreadGrid(60_000, 1000, end);
  assert.equal(grid.columns, 60);
  assert.equal(grid.fromMs, T);
  const cells = new Uint8Array(60).fill(255);
  cells[0] = 20;
  cells[59] = 180;
  const series: ThreadSeries = { fromMs: T, stepMs: 1000, columns: 60, threads: [{ nodeId: 2, thrNo: 2, name: 'ldm', busy: Buffer.from(cells).toString('base64') }] };
  assert.deepEqual([...decodeCells(series.threads[0]!.busy)].slice(0, 1).map(cellPercent), [10]);
  grid.load(series);
  const key = threadKey(2, 2);
  assert.equal(grid.cell(key, 59), 180);
  assert.equal(grid.mean(key), 50);
  // Two seconds later: the window moved by two columns; the old first column is gone.
  grid.append(node(2, T + 61_000, [['main', 0], ['rep', 0], ['ldm', 75]]));
  assert.equal(grid.fromMs, T + 2000);
  assert.equal(grid.cell(key, 59), 150);
  assert.equal(grid.cell(key, 58), 150, 'the reading covers the second before it, which had none');
  assert.equal(grid.cell(key, 57), 180);
  assert.equal(grid.mean(key), (90 + 75 + 75) / 3);
  const drawn = grid.changes;
  grid.append(node(2, T + 64_000, [['main', 0], ['rep', 0], ['ldm', 5]]));
  const ring = grid.ring(key)!;
  const row = Array.from({ length: 60 }, (_, c) => ring[(grid.oldestSlot + c) % 60]);
  assert.deepEqual(row.slice(54), [180, 150, 150, 255, 10, 10], 'a longer gap stays a gap');
  // What a drawing made at `drawn` must redraw: the three columns the window moved on by (the reading and the
  // second before it among them), no other.
  assert.deepEqual(grid.changedSlots(drawn), [57, 58, 59].map((c) => (grid.oldestSlot + c) % 60).sort((a, b) => a - b));
  assert.deepEqual(grid.changedSlots(grid.changes), []);
  grid.append(node(2, T + 64_000, [['main', 0], ['rep', 0], ['ldm', 4]]));
  assert.deepEqual(grid.changedSlots(drawn + 1), [], 'a reading that lowers no busiest cell writes none');
  assert.deepEqual(
    grid.threads().map((t) => [t.nodeId, t.thrNo, t.name]),
    [
      [2, 2, 'ldm'],
      [2, 0, 'main'],
      [2, 1, 'rep'],
    ],
  );

  // An hour on 1,000 columns: 4-second buckets, each keeping its busiest reading.
  const hour = new ThreadGrid(3_600_000, 1000, end);
  assert.equal(hour.stepMs, 4000);
  assert.ok(hour.columns <= 1000);
  hour.append(node(2, T + 56_000, [['ldm', 10]]));
  hour.append(node(2, T + 57_000, [['ldm', 60]]));
  hour.append(node(2, T + 58_000, [['ldm', 30]]));
  assert.equal(hour.cell(threadKey(2, 0), hour.columns - 1), 120);
  assert.equal(series.threads.length, 1);
});

test('a load fills only the window, keeps each cell its busiest, and rings cut from shared blocks stay apart', () => {
  const end = T / 1000 + 59;
  const grid = new ThreadGrid(60_000, 1000, end);
  const keys = Array.from({ length: 150 }, (_, i) => ({ nodeId: 2 + Math.floor(i / 20), thrNo: i % 20 }));
  const answer = (fromMs: number, cell: (i: number, c: number) => number): ThreadSeries => ({
    fromMs,
    stepMs: 1000,
    columns: 70,
    threads: keys.map((k, i) => ({ ...k, name: 'ldm', busy: Buffer.from(Array.from({ length: 70 }, (_, c) => cell(i, c))).toString('base64') })),
  });
  // Ten seconds before the window: the first ten cells of each thread fall outside it, the last ten after it.
  grid.load(answer(T - 10_000, (i, c) => (i + c) % 200));
  const row = (i: number): number[] => Array.from({ length: 60 }, (_, c) => grid.cell(threadKey(keys[i]!.nodeId, keys[i]!.thrNo), c));
  for (const i of [0, 63, 64, 127, 128, 149]) assert.deepEqual(row(i), Array.from({ length: 60 }, (_, c) => (i + c + 10) % 200), `thread ${i}`);
  // A second answer over the same seconds: a higher share wins, a lower one or none leaves the cell as it was.
  grid.load(answer(T, (i, c) => (c === 0 ? 199 : c === 1 ? 255 : 0)));
  for (const i of [0, 64, 149]) assert.deepEqual(row(i).slice(0, 3), [199, (i + 11) % 200, (i + 12) % 200], `thread ${i}`);
});

test('the heat table: a cell without a reading is transparent (the heatmap paints it by lookup alone), a reading opaque and hotter redder', () => {
  for (const theme of ['dark', 'light']) {
    const table = heatTable(theme);
    assert.equal(table[CELL_NONE], 0, theme);
    for (const cell of [0, 1, 100, 199, 200]) assert.equal(table[cell]! >>> 24, 255, `${theme} cell ${cell} is opaque`);
    // Little-endian RGBA: red is the low byte.
    assert.ok((table[200]! & 0xff) > (table[0]! & 0xff), `${theme}: 100 % is redder than 0 %`);
  }
});

test('the store keeps the SQL source and each node\'s figures; a delta replaces only the nodes it carries', () => {
  const source = { source: { status: 'up' as const, since: T, sqlNode: 'mysql://root@127.0.0.1:3306', serverVersion: '8.4.3', tls: false, missing: [], failovers: 0, lastError: null }, selfLoad: null, links: null };
  const a = node(2, T, LAYOUT);
  const b = node(3, T, LAYOUT);
  const data = applySnapshot(EMPTY_CLUSTER, snapshot([nodeView(2), nodeView(3)], { ndbinfo: source, ndbinfoNodes: [a, b] }), 1);
  assert.equal(data.ndbinfo?.source.status, 'up');
  assert.deepEqual([...data.ndbinfoNodes.keys()], [2, 3]);
  const later = node(3, T + 1000, [['ldm', 50]]);
  const out = applyDelta(data, { clusterId: data.clusterId!, baseVersion: 1, version: 2, ndbinfoNodes: [later, structuredClone(a)] });
  assert.equal(out.kind, 'applied');
  if (out.kind !== 'applied') return;
  assert.equal(out.data.ndbinfoNodes.get(2), data.ndbinfoNodes.get(2), 'an equal node keeps its object');
  assert.equal(out.data.ndbinfoNodes.get(3), later);
  const gone = applyDelta(out.data, { clusterId: data.clusterId!, baseVersion: 2, version: 3, removedNdbinfoNodeIds: [3], ndbinfo: null });
  assert.ok(gone.kind === 'applied' && gone.data.ndbinfo === null && [...gone.data.ndbinfoNodes.keys()].join() === '2');
  // A snapshot without ndbinfo (no SQL source, or an older recording) has none.
  assert.equal(applySnapshot(EMPTY_CLUSTER, snapshot([nodeView(2)]), 1).ndbinfo, null);
});
