/** A value that does not match the contract: what every validator (zod's on the engine side, the page's compiled ones) throws. */
export class ContractError extends Error {
  readonly code = 'BAD_MESSAGE';
  constructor(message: string) {
    super(message);
    this.name = 'ContractError';
  }
}
