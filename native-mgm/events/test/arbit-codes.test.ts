import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ARBIT_CODES, arbitOutcome, arbitrationLost, arbitrationWon } from '../arbit-codes.js';

/** The high 16 bits of `code`: an internal arbitration state number (spec §6.7), never part of the result. */
const withState = (result: number, state = 9): number => state * 65536 + result;

test('ArbitState/ArbitResult codes: every result the reference lists (§6.7), read from the low 16 bits', () => {
  assert.deepEqual(Object.keys(ARBIT_CODES).map(Number), [11, 21, 22, 23, 31, 32, 33, 41, 42, 43, 44, 45, 46, 47, 48, 49, 91, 92, 93, 94, 95]);
  const byOutcome = (o: string): number[] => Object.keys(ARBIT_CODES).map(Number).filter((c) => arbitOutcome(withState(c)) === o);
  // "41 lose on node count … 44 lose (node group missing) … 47 arbitrator says lose, 48/49 lose: arbitrator required …"
  assert.deepEqual(byOutcome('lost'), [41, 44, 47, 48, 49]);
  assert.deepEqual(byOutcome('won'), [42, 46]);
  assert.deepEqual(byOutcome('unneeded'), [43]);
  assert.deepEqual(byOutcome('undecided'), [45]);
  assert.deepEqual(byOutcome('error'), [91, 92, 93, 94, 95]);
  assert.equal(arbitOutcome(withState(50)), null, 'a code the reference does not list means nothing');
});

test('arbitration lost (a side lost, could not decide or failed) and won (by arbitration, not 43) for incidents and alerts', () => {
  const all = Object.keys(ARBIT_CODES).map(Number);
  assert.deepEqual(all.filter((c) => arbitrationLost(withState(c, 7))), [41, 44, 45, 47, 48, 49, 91, 92, 93, 94, 95]);
  assert.deepEqual(all.filter((c) => arbitrationWon(withState(c, 7))), [42, 46]);
  assert.equal(arbitrationWon(withState(46, 0xffff)), true, 'whatever the state number');
});
