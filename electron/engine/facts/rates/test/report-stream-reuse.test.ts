import assert from 'node:assert/strict';
import { test } from 'node:test';
import { REPORT_PERIOD_MS, ReportStream } from '../report-stream.js';

/** The mean of the newest `instances` reports, per second, as the stream's doc defines its rate. */
function expected(reports: readonly number[], instances: number): number {
  const window = reports.slice(-instances);
  return (window.reduce((s, v) => s + v, 0) * (instances / window.length) * 1000) / REPORT_PERIOD_MS;
}

test('a report equal to the one it pushes out of the mean keeps the rates object; any other gives the rates anew', () => {
  const stream = new ReportStream(new Set());
  stream.configure(4);
  // Idle zeros, then a burst, then zeros again, with equal neighbours and repeats: every reading checked against the definition.
  const values = [0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0];
  const seen: number[] = [];
  let kept = 0;
  values.forEach((v, i) => {
    const before = stream.rates();
    stream.add(1_000_000 + i * 1250, [v]);
    seen.push(v);
    const after = stream.rates();
    assert.ok(after);
    assert.equal(after.values[0], expected(seen, 4), `reading after report ${i}`);
    const leaving = seen.length > 4 ? seen[seen.length - 5] : undefined;
    if (leaving === v) {
      assert.equal(after, before, `report ${i} (${v}) pushed out an equal one: the same object`);
      kept++;
    } else assert.notEqual(after, before, `report ${i} moved the window`);
  });
  assert.ok(kept >= 10, `${kept} readings reused`);
});

test('an instance count that changes gives the rates anew, though the reports are equal', () => {
  const stream = new ReportStream(new Set());
  for (let i = 0; i < 8; i++) stream.add(1_000_000 + i * 1250, [5]);
  const before = stream.rates();
  stream.configure(2);
  stream.add(1_010_000, [5]);
  assert.notEqual(stream.rates(), before);
  assert.equal(stream.rates()?.instances, 2);
  assert.equal(stream.rates()?.values[0], expected([5, 5], 2));
});

test('a stream holds its live reports and at most as many dead ones, however long it runs', () => {
  const stream = new ReportStream(new Set());
  stream.configure(4);
  const held = (): number => (stream as unknown as { reports: unknown[] }).reports.length;
  let most = 0;
  // An instance reporting every 5 s for two days: a dead report keeps its values until the array is compacted.
  for (let i = 0; i < 35_000; i++) {
    stream.add(1_000_000 + i * REPORT_PERIOD_MS, [i % 3]);
    most = Math.max(most, held());
  }
  // The 64 kept for the instance count, and no more dead ones than those.
  assert.ok(most <= 2 * 64 + 1, `at most ${most} reports held`);
  assert.equal(stream.rates()?.values[0], expected([34_996, 34_997, 34_998, 34_999].map((i) => i % 3), 4));
});
