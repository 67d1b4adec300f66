/** A value that does not match the contract: what every validator (zod's on the engine side, the page's compiled ones) throws. */
export class ContractError extends Error {
  readonly code = 'BAD_MESSAGE';
  constructor(message: string) {
    super(message);
    this.name = 'ContractError';
  }
}

/**
 * How every validator words a mismatch, `invalid push message at snapshot.nodes.1.status: …`: what was checked, where
 * the first problem is (a path of keys and indexes, none for the value itself) and what it is.
 */
export function contractMismatch(what: string, path: readonly PropertyKey[], problem: string | undefined): ContractError {
  return new ContractError(`invalid ${what}${path.length > 0 ? ` at ${path.map(String).join('.')}` : ''}: ${problem ?? 'does not match the contract'}`);
}
