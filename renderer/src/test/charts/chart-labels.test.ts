import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LABEL_CHAR_PX, placeLabels } from '../../view-model/charts/label-lanes.js';
import { TICK_LABEL_PX, centredTimeTicks, timeTicks } from '../../view-model/charts/time-ticks.js';

test('mark labels a few seconds apart go in separate lanes; ones far apart share the first', () => {
  // A run's start and its first phase 2 s apart over 15 minutes on 1,000 px: 2 px apart, their text 100 px wide.
  const placed = placeLabels(
    [
      { at: 2_000, label: 'warmup' },
      { at: 0, label: '▶ run 1: load' },
      { at: 600_000, label: '▶ run 2' },
    ],
    0,
    900_000,
    1000,
  );
  assert.deepEqual(placed.map((p) => [p.label, p.lane, p.anchor]), [
    ['▶ run 1: load', 0, 'start'],
    ['warmup', 1, 'start'],
    ['▶ run 2', 0, 'start'],
  ]);
  // Lanes never hold two labels that overlap.
  for (const lane of [0, 1]) {
    const boxes = placed.filter((p) => p.lane === lane).map((p) => [(p.at / 900_000) * 1000, (p.at / 900_000) * 1000 + p.label.length * LABEL_CHAR_PX]);
    for (let i = 1; i < boxes.length; i++) assert.ok((boxes[i]?.[0] ?? 0) >= (boxes[i - 1]?.[1] ?? 0));
  }
});

test('a label near the right end is written leftwards; one with no lane left is not written', () => {
  const [end] = placeLabels([{ at: 99, label: 'measure' }], 0, 100, 500);
  assert.equal(end?.anchor, 'end');
  const crowded = placeLabels([0, 1, 2, 3].map((at) => ({ at, label: `phase ${at}` })), 0, 100, 500, 3);
  assert.deepEqual(crowded.map((p) => p.lane), [0, 1, 2, null]);
});

test('an axis drops a tick whose centred label would be cut at the right end', () => {
  // 00:00:00 to 00:05:03 on 1,000 px: the 00:05:00 tick sits 10 px from the end.
  const from = Date.UTC(2026, 0, 1) + new Date(Date.UTC(2026, 0, 1)).getTimezoneOffset() * 60_000;
  const to = from + 303_000;
  const all = timeTicks(from, to, 1000);
  assert.equal(all.at(-1), from + 300_000);
  const kept = centredTimeTicks(from, to, 1000, 24);
  assert.equal(kept.at(-1), from + 270_000, 'its half label does not fit in 10 px + 24 px of margin');
  assert.deepEqual(centredTimeTicks(from, to, 1000, TICK_LABEL_PX), all, 'with room beyond the plot it stays');
});
