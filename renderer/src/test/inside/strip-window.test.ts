import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stripWindow } from '../../view-model/inside/strip-window.js';

test('the kind strip puts in the page the lines its scroll box shows, and every item is reached by scrolling', () => {
  // 144 data nodes, items 440 px wide with 16 px between them on 1,800 px: three a line, 48 lines, three shown.
  const [count, width, itemWidth, gap, line, shown] = [144, 1800, 440, 16, 18, 3];
  const top = stripWindow(count, width, itemWidth, gap, line, shown, 0);
  assert.deepEqual(top, { perLine: 3, lines: 48, from: 0, to: 12, padTop: 0, padBottom: 44 * line });
  const reached = new Set<number>();
  const maxScroll = 48 * line - shown * line;
  for (let scrollTop = 0; scrollTop <= maxScroll; scrollTop++) {
    const w = stripWindow(count, width, itemWidth, gap, line, shown, scrollTop);
    // The box's content is as tall as all the lines, whatever is in the page.
    assert.equal(w.padTop + Math.ceil((w.to - w.from) / w.perLine) * line + w.padBottom, w.lines * line, `scrollTop ${scrollTop}`);
    // The lines the box shows (from the one at its top to the one at its bottom edge) are all in the page.
    const firstShown = Math.floor(scrollTop / line) * 3;
    const lastShown = Math.min(count, Math.ceil((scrollTop + shown * line) / line) * 3);
    assert.ok(w.from <= firstShown && w.to >= lastShown, `scrollTop ${scrollTop}: items ${w.from}–${w.to} for ${firstShown}–${lastShown}`);
    for (let i = w.from; i < w.to; i++) reached.add(i);
  }
  assert.equal(reached.size, count);
  // Scrolled past the end (the box grew taller meanwhile): still the last lines, not an empty page.
  assert.deepEqual(stripWindow(count, width, itemWidth, gap, line, shown, 10_000), { perLine: 3, lines: 48, from: 135, to: 144, padTop: 45 * line, padBottom: 0 });
});

test('the kind strip before its items are measured, and with fewer items than a line holds', () => {
  assert.deepEqual(stripWindow(4, 1800, 0, 16, 18, 3, 0), { perLine: 1, lines: 4, from: 0, to: 4, padTop: 0, padBottom: 0 });
  assert.deepEqual(stripWindow(2, 1800, 440, 16, 18, 3, 0), { perLine: 3, lines: 1, from: 0, to: 2, padTop: 0, padBottom: 0 });
  // A box narrower than one item still shows one a line.
  assert.equal(stripWindow(10, 200, 440, 16, 18, 3, 0).perLine, 1);
});
