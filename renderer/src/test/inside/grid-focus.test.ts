import assert from 'node:assert/strict';
import { test } from 'node:test';
import { moveCell } from '../../view-model/inside/grid-focus.js';

test('keys move a grid focus one cell, a page or to the row ends, never out of the grid; other keys do nothing', () => {
  const at = { row: 5, column: 5 };
  const move = (key: string, from = at) => moveCell(from, key, 10, 8, 3);
  assert.deepEqual(move('ArrowUp'), { row: 4, column: 5 });
  assert.deepEqual(move('ArrowDown'), { row: 6, column: 5 });
  assert.deepEqual(move('ArrowLeft'), { row: 5, column: 4 });
  assert.deepEqual(move('ArrowRight'), { row: 5, column: 6 });
  assert.deepEqual(move('PageUp'), { row: 2, column: 5 });
  assert.deepEqual(move('PageDown', { row: 8, column: 0 }), { row: 9, column: 0 }, 'a page down stops at the last row');
  assert.deepEqual(move('Home'), { row: 5, column: 0 });
  assert.deepEqual(move('End'), { row: 5, column: 7 });
  assert.deepEqual(move('ArrowUp', { row: 0, column: 0 }), { row: 0, column: 0 });
  assert.equal(move('Enter'), null);
  assert.equal(moveCell(at, 'ArrowUp', 0, 8, 3), null, 'an empty grid has nowhere to go');
});
