import { MgmError } from '../../native-mgm/errors.js';
import { NdbinfoError, type NdbinfoErrorCode } from '../../ndbinfo/client/errors.js';
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
  /** `rolling-restart` stopped before its end: a safety check failed, a restart was refused or overdue, or it waits for the operator. */
  HALTED: 8,
  /** The SQL node refused the user or password (or the user may not read ndbinfo). */
  ACCESS_DENIED: 9,
  /** The SQL server has no ndbinfo schema: not an SQL node of an NDB Cluster (or ndbinfo is off). */
  NO_NDBINFO: 10,
  /** `report`: the recordings hold no run (or none of the names given with --run); the empty report is printed. */
  NO_RUNS: 11,
  /** `rolling-restart` asked before its first step and was not told yes (no, or the input ended): nothing was sent. */
  DECLINED: 12,
} as const;

const NDBINFO_EXIT: Record<NdbinfoErrorCode, number> = {
  BAD_URL: EXIT.USAGE,
  NO_PASSWORD: EXIT.USAGE,
  UNKNOWN_HOST: EXIT.UNREACHABLE,
  UNREACHABLE: EXIT.UNREACHABLE,
  LOST: EXIT.UNREACHABLE,
  CLOSED: EXIT.UNREACHABLE,
  TIMEOUT: EXIT.TIMEOUT,
  ACCESS_DENIED: EXIT.ACCESS_DENIED,
  NO_NDBINFO: EXIT.NO_NDBINFO,
  TLS: EXIT.TLS,
  MALFORMED: EXIT.PROTOCOL,
  TOO_LARGE: EXIT.PROTOCOL,
  UNSAFE_AUTH: EXIT.TLS,
  QUERY_FAILED: EXIT.COMMAND_FAILED,
};

export function exitCodeFor(err: unknown): number {
  if (err instanceof NdbinfoError) return NDBINFO_EXIT[err.code];
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
    // UNEXPECTED_REPLY: it answered with words of its own instead of the reply (one still starting), not the command.
    case 'COMMAND_FAILED':
    case 'SERVER_PARSER_ERROR':
    case 'UNEXPECTED_REPLY':
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
