/**
 * ArbitState / ArbitResult `code` (spec §6.7): the low 16 bits are the result, the high 16 an internal arbitration
 * state number. One table, so every reader (event text, incident causes, alerts, failure reports) means the same by
 * "won" and "lost".
 * - won: the reporting side goes on by arbitration (node count, or the arbitrator said so);
 * - unneeded: it goes on without arbitration (43: a node group fully alive);
 * - lost: the side shuts down;
 * - undecided: 45, a possible network partitioning, decides nothing yet;
 * - error: arbitration itself failed (91–95);
 * - state: the arbitrator's own life (11–33), no outcome.
 */
export type ArbitOutcome = 'won' | 'unneeded' | 'lost' | 'undecided' | 'error' | 'state';

export const ARBIT_CODES: Readonly<Record<number, { words: string; outcome: ArbitOutcome }>> = {
  11: { words: 'arbitration thread started', outcome: 'state' },
  21: { words: 'prepare arbitrator (part 1)', outcome: 'state' },
  22: { words: 'prepare arbitrator (part 2)', outcome: 'state' },
  23: { words: 'prepare arbitrator (at run)', outcome: 'state' },
  31: { words: 'arbitrator started', outcome: 'state' },
  32: { words: 'arbitrator failed', outcome: 'state' },
  33: { words: 'arbitrator exited', outcome: 'state' },
  41: { words: 'lost on node count', outcome: 'lost' },
  42: { words: 'won on node count', outcome: 'won' },
  43: { words: 'won: a node group is fully alive, no arbitration needed', outcome: 'unneeded' },
  44: { words: 'lost: a node group is missing', outcome: 'lost' },
  45: { words: 'possible network partitioning', outcome: 'undecided' },
  46: { words: 'arbitrator says win', outcome: 'won' },
  47: { words: 'arbitrator says lose', outcome: 'lost' },
  48: { words: 'lost: arbitrator required but not running', outcome: 'lost' },
  49: { words: 'lost: arbitrator required but none configured', outcome: 'lost' },
  91: { words: 'arbitration error: bad ticket', outcome: 'error' },
  92: { words: 'arbitration error: too many', outcome: 'error' },
  93: { words: 'arbitration error: state', outcome: 'error' },
  94: { words: 'arbitration error: timeout', outcome: 'error' },
  95: { words: 'arbitration error: unknown', outcome: 'error' },
};

/** The result code of a `code` field (its low 16 bits). */
export function arbitCode(code: number): number {
  return code & 0xffff;
}

/** What a `code` field means for the reporting side; null for a code the reference does not list. */
export function arbitOutcome(code: number): ArbitOutcome | null {
  return ARBIT_CODES[arbitCode(code)]?.outcome ?? null;
}

/** A side lost, or arbitration could not decide or failed: what incidents and alerts call arbitration lost. */
export function arbitrationLost(code: number): boolean {
  const o = arbitOutcome(code);
  return o === 'lost' || o === 'undecided' || o === 'error';
}

/** The side won by arbitration (not 43, where none was needed). */
export function arbitrationWon(code: number): boolean {
  return arbitOutcome(code) === 'won';
}
