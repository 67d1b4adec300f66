import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunReport } from '../contract.js';
import { commonPhases } from '../contract.js';
import { alignOffset, nextPhaseName, overlaySeries, parseTags, quickRunName, ratioText, runLines } from '../view-model/runs.js';

const report = (id: string, start: number, phases: Array<[string, number]>, values: Array<number | null>, stepMs = 1000): RunReport =>
  ({
    id,
    name: id,
    tags: {},
    start,
    end: start + values.length * 1000,
    phases: phases.map(([name, at]) => ({ name, start: at, end: null })),
    series: { offsetMs: values.map((_, i) => i * stepMs), values: { transactions: values } },
  }) as unknown as RunReport;

test('ratio sentences: the change of the means with the p5..p95 spread', () => {
  assert.equal(ratioText({ figure: 'reads', ratio: 0.74, low: 0.72, high: 0.76 }), '−26 % (p5..p95 −28 %..−24 %)');
  assert.equal(ratioText({ figure: 'reads', ratio: 1.5, low: null, high: null }), '+50 %');
  assert.equal(ratioText({ figure: 'scans', ratio: null, low: null, high: null }), 'n/a');
});

test('the overlay aligns each run at its start or at its phase of that name', () => {
  const a = report('A', 10_000, [['load', 12_000]], [1, 2, 3]);
  const b = report('B', 50_000, [['warm', 50_000], ['load', 51_000]], [4, 5, 6]);
  assert.equal(alignOffset(a, 'load'), 2000);
  assert.equal(alignOffset(b, 'start'), 0);
  assert.deepEqual(commonPhases([a, b]), ['load']);
  const { rows, lines } = overlaySeries([a, b], 'transactions', 'load');
  assert.deepEqual(
    rows.map((r) => [r.t, ...lines.map((l) => r[l.key]).filter((v) => v !== undefined)]),
    [[-2, 1], [-1, 2], [-1, 4], [0, 3], [0, 5], [1, 6]],
  );
});

/** What recharts draws for a line with connectNulls: a segment between each two rows that have its key. */
const segments = (rows: ReadonlyArray<Record<string, number>>, key: string): Array<[number, number]> => {
  const ts = rows.filter((r) => r[key] !== undefined).map((r) => r.t as number);
  return ts.slice(1).map((t, i) => [ts[i] as number, t]);
};

test('the overlay bridges other runs\' instants but never a lost second (issue 23: a gap is a gap)', () => {
  // A lost its connection at 2 s and 3 s; B samples half a second off A, so its rows sit between A's.
  const a = report('A', 0, [], [10, 11, null, null, 14, 15]);
  const b = report('B', 500, [], [20, 21, 22, 23, 24, 25]);
  const { rows, lines } = overlaySeries([a, b], 'transactions', 'start');
  const drawn = (run: number) => lines.filter((l) => l.run === run).flatMap((l) => segments(rows, l.key));
  assert.deepEqual(drawn(0), [[0, 1], [4, 5]], 'A is drawn up to 1 s and from 4 s, nothing across 2–3 s');
  assert.deepEqual(drawn(1), [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5]], 'B is one line across A\'s rows');
  assert.deepEqual(lines.map((l) => [l.run, l.first]), [[0, true], [0, false], [1, true]], 'one legend entry a run');
  // A stretch of one sample between two lost ones is still shown (as a dot).
  const lone = overlaySeries([report('C', 0, [], [null, 7, null])], 'transactions', 'start');
  assert.deepEqual(lone.lines.map((l) => l.samples), [1]);
});

test('the one key names runs and phases; tags come from "k=v" pieces', () => {
  assert.equal(quickRunName(new Date(2026, 0, 1, 9, 5, 7)), 'run 09:05:07');
  assert.equal(nextPhaseName({ phases: [{ name: 'a', start: 0, end: null }] }), 'phase 2');
  assert.deepEqual(parseTags('compress=on, nodes=8 junk =x'), { compress: 'on', nodes: '8' });
});

test('the throughput chart marks each run start, phase and stop', () => {
  const lines = runLines([
    { id: 'r1', name: 'A', tags: {}, start: 0, end: 30, phases: [{ name: 'load', start: 0, end: 20 }, { name: 'read', start: 20, end: 30 }] },
    { id: 'r2', name: 'B', tags: {}, start: 40, end: null, phases: [] },
  ]);
  assert.deepEqual(lines, [
    { at: 0, label: '▶ A: load' },
    { at: 20, label: 'read' },
    { at: 30, label: '■ A' },
    { at: 40, label: '▶ B' },
  ]);
});
