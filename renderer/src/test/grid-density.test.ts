import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COMPACT_METRICS, DENSE_METRICS, metricsFor } from '../components/nodes/grid-metrics.js';
import { createAppStore } from '../store/store.js';
import { persistUiPrefs } from '../store/ui-prefs.js';
import { gridSections } from '../view-model/nodes/grid-layout.js';
import { fillScale, gridColumns, gridRows, resolveDensity, rowHeight, scaleMetrics, type Density, type GridMetrics } from '../view-model/nodes/grid-rows.js';
import { memoryOutdated, tilePhase, tileStatus } from '../view-model/nodes/tile-status.js';
import { nodeView } from './fixtures.js';

/** The largest cluster NDB allows: 144 data nodes in 72 two-replica groups, 2 management nodes, 109 API slots. */
function largestCluster() {
  const nodes = new Map<number, ReturnType<typeof nodeView>>();
  for (let id = 1; id <= 144; id++) nodes.set(id, nodeView(id, { nodeGroup: Math.floor((id - 1) / 2) }));
  for (const id of [145, 146]) nodes.set(id, nodeView(id, { type: 'MGM', nodeGroup: null, status: 'CONNECTED' }));
  for (let id = 147; id <= 255; id++) nodes.set(id, nodeView(id, { type: 'API', nodeGroup: null, status: id < 187 ? 'CONNECTED' : 'NO_CONTACT', address: id < 187 ? '10.0.1.1' : null }));
  const groups = Array.from({ length: 72 }, (_, g) => ({ nodeGroup: g, nodeIds: [2 * g + 1, 2 * g + 2], live: 2, health: 'OK' as const }));
  return gridSections(nodes, groups);
}

test('auto density: cards while the data nodes fit, tiles when they would not; an explicit choice wins', () => {
  const big = largestCluster();
  const small = big.filter((s) => s.kind !== 'nodegroup' || s.nodeGroup < 2);
  const cards = (d: Density) => metricsFor(d, false);
  assert.equal(resolveDensity('auto', big, 1896, 950, cards), 'compact');
  assert.equal(resolveDensity('auto', small, 1000, 800, cards), 'comfortable');
  assert.equal(resolveDensity('comfortable', big, 1896, 950, cards), 'comfortable');
  assert.equal(resolveDensity('compact', small, 1000, 800, cards), 'compact');
  // Not measured yet: no flash of tiles before the first layout.
  assert.equal(resolveDensity('auto', big, 0, 0, cards), 'comfortable');
  // Two node groups of cards need 516 px at 1000 px wide: tiles below that, and cards again only with room to spare.
  assert.equal(resolveDensity('auto', small, 1000, 500, cards), 'compact');
  assert.equal(resolveDensity('auto', small, 1000, 540, cards, 'compact'), 'compact', 'a row more of room does not flip back');
  assert.equal(resolveDensity('auto', small, 1000, 540, cards, 'comfortable'), 'comfortable');
  assert.equal(resolveDensity('auto', small, 1000, 800, cards, 'compact'), 'comfortable');
  // 144 data nodes under a 1280×720 wall screen's header and headline: not even tiles fit, dense tiles do.
  assert.equal(resolveDensity('auto', big, 1264, 600, cards), 'dense');
  assert.equal(resolveDensity('dense', small, 1000, 800, cards), 'dense');
  // Tiles at 1896 px wide need 574 px: enough to choose them, not to leave dense tiles without room to spare.
  assert.equal(resolveDensity('auto', big, 1896, 700, cards), 'compact');
  assert.equal(resolveDensity('auto', big, 1896, 700, cards, 'dense'), 'dense');
  assert.equal(resolveDensity('auto', big, 1896, 800, cards, 'dense'), 'compact');
});

/** Rows up to and including the API header, and the height they take. */
function aboveApi(columnsWidth: number, m: GridMetrics) {
  const rows = gridRows(largestCluster(), gridColumns(columnsWidth, m), m);
  const firstApi = rows.findIndex((r) => r.kind === 'header' && r.section.kind === 'api');
  return { rows, firstApi, height: rows.slice(0, firstApi + 1).reduce((sum, r) => sum + rowHeight(r, m), 0) };
}

test('compact rows: 144 data nodes, the management nodes and the API header fit in a 1080p dashboard', () => {
  const columns = gridColumns(1896, COMPACT_METRICS);
  const { rows, firstApi, height } = aboveApi(1896, COMPACT_METRICS);
  assert.ok(firstApi > 0, 'API nodes come last, under their header');
  // 1080 minus the header and up to four alert rows.
  assert.ok(height <= 1080 - 50 - 4 * 34, `${height} px before the API nodes`);
  const packed = rows.filter((r) => r.kind === 'groups').flatMap((r) => (r.kind === 'groups' ? r.sections : []));
  assert.equal(packed.filter((s) => s.kind === 'nodegroup').length, 72);
  assert.ok(packed.some((s) => s.kind === 'mgm'), 'management nodes pack beside the node groups');
  for (const r of rows) if (r.kind === 'groups') assert.ok(r.sections.reduce((n, s) => n + s.nodeIds.length, 0) <= columns);
});

test('dense rows: 144 data nodes, the management nodes and 40 API nodes fit a 720p dashboard with an alert showing', () => {
  const { rows, firstApi, height } = aboveApi(1264, DENSE_METRICS);
  const api = rows.slice(firstApi + 1).reduce((sum, r) => sum + rowHeight(r, DENSE_METRICS), 0);
  // 720 minus the header, the one-row headline and one alert row.
  assert.ok(height + api <= 720 - 50 - 56 - 34, `${height} px before the API nodes and ${api} px of them`);
});

test('tile words are short but never colour alone; a starting tile shows its step of nine', () => {
  assert.equal(tileStatus('NO_CONTACT'), 'NO CONTACT');
  assert.equal(tileStatus('SHUTTING_DOWN'), 'STOPPING');
  assert.equal(tilePhase({ status: 'STARTING', startPhase: 4 }), 'p4/9');
  assert.equal(tilePhase({ status: 'STARTING', startPhase: 101 }), 'p9/9');
  assert.equal(tilePhase({ status: 'STARTED', startPhase: 0 }), null);
});

test('a tile greys its memory number when the node is out of contact or was left out of the last memory report', () => {
  const data = { usedPages: 10, totalPages: 100, pageSizeBytes: 32768, percent: 10 };
  const node = (lastSeenAt: number | null, stale?: boolean) => nodeView(2, { lastSeenAt, memory: { data: { ...data, stale }, index: null } });
  assert.equal(memoryOutdated(node(null, false)), false);
  assert.equal(memoryOutdated(node(null)), false);
  assert.equal(memoryOutdated(node(null, true)), true);
  assert.equal(memoryOutdated(node(1_000, false)), true);
});

test('the density setting is read from storage at start and written back when changed', () => {
  const saved = new Map<string, string>([['ndbtop.density', 'compact']]);
  const storage = { getItem: (k: string) => saved.get(k) ?? null, setItem: (k: string, v: string) => void saved.set(k, v) };
  const store = createAppStore();
  const stop = persistUiPrefs(store, storage);
  assert.equal(store.getState().ui.density, 'compact');
  store.setUi({ density: 'comfortable' });
  assert.equal(saved.get('ndbtop.density'), 'comfortable');
  stop();
  saved.set('ndbtop.density', 'nonsense');
  const other = createAppStore();
  persistUiPrefs(other, storage)();
  assert.equal(other.getState().ui.density, 'auto', 'an unknown value is ignored');
});

test('dashboard tiles fill the screen: 48 data nodes drawn larger than compact, 144 as they were, each still fitting', () => {
  const big = largestCluster();
  // 24 node groups and the management nodes: what a 48-node dashboard shows.
  const fortyEight = big.filter((s) => s.kind === 'mgm' || (s.kind === 'nodegroup' && s.nodeGroup < 24));
  const height = (sections: typeof big, m: GridMetrics, width: number) => gridRows(sections, gridColumns(width, m), m).reduce((n, r) => n + rowHeight(r, m), 0);
  const scale48 = fillScale(fortyEight, 1900, 880, COMPACT_METRICS);
  assert.ok(scale48 >= 2, `48 data nodes at ${scale48}×`);
  assert.ok(height(fortyEight, scaleMetrics(COMPACT_METRICS, scale48), 1900) <= 880, 'the scaled grid still fits');
  assert.ok(height(fortyEight, scaleMetrics(COMPACT_METRICS, scale48 + 0.25), 1900) > 880 || scale48 === 2.5, 'and is the largest that does');
  assert.equal(fillScale(big.filter((s) => s.kind !== 'api'), 1900, 880, COMPACT_METRICS), 1, '144 data nodes already fill it');
  assert.equal(fillScale(fortyEight, 0, 0, COMPACT_METRICS), 1, 'not measured yet');
  assert.equal(scaleMetrics(COMPACT_METRICS, 1), COMPACT_METRICS);
});
