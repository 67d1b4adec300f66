/** Errors a handler rejects with; transports turn `code` and `message` into a WireError. */
export class EngineRequestError extends Error {
  constructor(
    readonly code: 'NOT_FOUND' | 'UNSUPPORTED' | 'INVALID',
    message: string,
  ) {
    super(message);
    this.name = 'EngineRequestError';
  }
}
