/**
 * Error texts as the server builds them, `<message>: <status>: <classification>` (spec §1.4), from the
 * management server's error table. Only 5028 is verified word for word; 299's classification is a best reading.
 */
const ERRORS: Record<number, [message: string, status: string, classification: string]> = {
  299: ['Operation not allowed or aborted due to single user mode', 'Temporary error', 'Node shutdown'],
  1321: ['Backup aborted by user request', 'Permanent error', 'User defined error'],
  5000: ['No contact with the process (dead ?).', 'Permanent error', 'Application error'],
  5002: ['The process has wrong type. Expected a DB process.', 'Permanent error', 'Application error'],
  5028: ['Node shutdown would cause system crash', 'Permanent error', 'Application error'],
  5030: ['No contact with database nodes', 'Permanent error', 'Application error'],
  5062: ['The specified node is not an API node.', 'Permanent error', 'Application error'],
  5063: ['Operation not allowed while nodes are starting or stopping.', 'Permanent error', 'Application error'],
};

export const MGM_ERROR = {
  singleUserMode: 299,
  backupAborted: 1321,
  noContactWithProcess: 5000,
  wrongProcessType: 5002,
  shutdownWouldCrash: 5028,
  noContactWithDbNodes: 5030,
  notApiNode: 5062,
  startingOrStopping: 5063,
} as const;

export function mgmErrorText(code: number): string {
  const entry = ERRORS[code];
  return entry ? entry.join(': ') : 'Unknown error code: Unknown result: Unknown error code';
}

/** Outcome of an operator command on the model; the command layer formats it per command. */
export type OperationResult = { ok: true; count: number; disconnect: boolean } | { ok: false; code: number };
