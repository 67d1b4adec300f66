import assert from 'node:assert/strict';
import { test } from 'node:test';
import { heatLabels, MIN_LABEL_PX } from '../../view-model/inside/heat-labels.js';
import type { ThreadLine } from '../../view-model/inside/threads.js';

/** One data node's threads as a configuration gives them: main, rep, 8 ldm, 2 tc, recv, send. */
function node(nodeId: number): ThreadLine[] {
  const kinds = ['main', 'rep', ...Array<string>(8).fill('ldm'), 'tc', 'tc', 'recv', 'send'];
  const seen = new Map<string, number>();
  return kinds.map((kind, thrNo) => {
    const n = (seen.get(kind) ?? 0) + 1;
    seen.set(kind, n);
    const several = kinds.filter((k) => k === kind).length > 1;
    return { key: nodeId * 65_536 + thrNo, nodeId, thrNo, kind, label: several ? `${kind} ${n - 1}` : kind };
  });
}
const LINES = [2, 3, 4, 5].flatMap(node);

test('heatmap names: never under 11 px; each thread named when its row is tall enough', () => {
  const labels = heatLabels(LINES, 0, LINES.length, 12, 0);
  assert.ok(labels.every((l) => l.px >= MIN_LABEL_PX));
  assert.deepEqual(labels.filter((l) => l.tone === 'muted').map((l) => l.text), LINES.map((l) => l.label));
  assert.deepEqual(labels.filter((l) => l.tone === 'fg').map((l) => l.text), ['node 2', 'node 3', 'node 4', 'node 5']);
});

test('heatmap names: rows too low (1280×720: 6 px) are named by kind, once per run tall enough, never at 6 px', () => {
  const labels = heatLabels(LINES, 0, LINES.length, 6, 0);
  assert.ok(labels.every((l) => l.px >= MIN_LABEL_PX), labels.map((l) => `${l.text} ${l.px}`).join(', '));
  const first = labels.filter((l) => l.tone === 'muted').slice(0, 2);
  // 8 ldm rows (48 px) and 2 tc rows (12 px) are named; a single 6 px row (main, rep, recv, send) is not.
  assert.deepEqual(first.map((l) => l.text), ['ldm ×8', 'tc ×2']);
  assert.equal(first[0]?.y, ((2 + 10) * 6) / 2, 'in the middle of its run');
  // No two names overlap.
  const ys = labels.filter((l) => l.tone === 'muted').map((l) => l.y).sort((a, b) => a - b);
  for (let i = 1; i < ys.length; i++) assert.ok(ys[i]! - ys[i - 1]! >= MIN_LABEL_PX, `${ys[i - 1]} and ${ys[i]}`);
});

test('heatmap names: a run scrolled half out of view is named once, counting its rows above the view', () => {
  const labels = heatLabels(LINES, 5, LINES.length, 6, 30);
  assert.equal(labels.find((l) => l.tone === 'muted')?.text, 'ldm ×8');
  assert.equal(labels.filter((l) => l.text === 'ldm ×8').length, 4, 'once per node');
});
