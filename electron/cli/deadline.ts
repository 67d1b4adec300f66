import { TimeoutError } from '../../native-mgm/errors.js';

/**
 * Runs a command under one deadline (`--timeout`): every connect and request gets the same signal, so a server
 * that answers each step just in time cannot stretch the command to many timeouts. Past the deadline the
 * command fails with TimeoutError (exit code 6), whatever step it was in.
 */
export async function withDeadline<T>(ms: number, what: string, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const signal = AbortSignal.timeout(ms);
  try {
    return await run(signal);
  } catch (err) {
    if (signal.aborted) throw new TimeoutError(what, ms);
    throw err;
  }
}
