import { MgmError } from '../../native-mgm/errors.js';
import { RecordingError } from '../engine/recording/recording-reader.js';

/**
 * Exit codes scripts can rely on: each failure class has its own, so `ndbtop show` in a health check can tell
 * "cluster unreachable" from "you typed the connectstring wrong" without parsing text.
 */
export const EXIT = {
  OK: 0,
  /** Anything unexpected (a bug); the message says what. */
  FAILURE: 1,
  /** Wrong command-line usage, including a bad connectstring and a file given as a recording that is none. */
  USAGE: 2,
  UNREACHABLE: 3,
  PROTOCOL: 4,
  /** The server answered, but refused or failed the command. */
  COMMAND_FAILED: 5,
  TIMEOUT: 6,
  /** TLS could not be set up (certificate missing, expired, wrong CA, host name, handshake), or is required. */
  TLS: 7,
  /** `report`: the recordings hold no run (or none of the names given with --run); the empty report is printed. */
  NO_RUNS: 8,
} as const;

export function exitCodeFor(err: unknown): number {
  if (err instanceof RecordingError) return EXIT.USAGE;
  if (!(err instanceof MgmError)) return EXIT.FAILURE;
  switch (err.code) {
    case 'BAD_CONNECTSTRING':
      return EXIT.USAGE;
    case 'UNREACHABLE':
    case 'CLOSED':
      return EXIT.UNREACHABLE;
    case 'PROTOCOL':
      return EXIT.PROTOCOL;
    case 'COMMAND_FAILED':
    case 'SERVER_PARSER_ERROR':
      return EXIT.COMMAND_FAILED;
    // The server requires TLS and this session has none: the cure is a certificate, like every TLS failure.
    case 'AUTH_REQUIRED':
    case 'TLS':
      return EXIT.TLS;
    case 'TIMEOUT':
      return EXIT.TIMEOUT;
    case 'ABORTED':
      return EXIT.OK;
  }
}
