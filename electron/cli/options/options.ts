import { InvalidArgumentError, Option, type Command } from 'commander';
import { FAILOVER_POLICIES } from '../../contract/page-safe/vocabulary.js';
import type { FailoverPolicy } from '../../engine/facts/config/failover-targets.js';
import { resolveConnectstring, type ResolvedConnectstring } from '../../../native-mgm/connectstring.js';

/** commander parser for whole numbers within a range; its message is what the user sees after "error:". */
export function intOption(min: number, max: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`must be from ${min} to ${max}`);
    return n;
  };
}

/** Whether `value` is one of `values` (a vocabulary's words), as their type. */
export function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}

/** commander parser for one word of a fixed list. */
export function oneOf<T extends string>(values: readonly T[]): (value: string) => T {
  return (value) => {
    if (!isOneOf(values, value)) throw new InvalidArgumentError(`one of ${values.join(', ')}`);
    return value;
  };
}

export function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number');
  return n;
}

export function addConnectOptions(command: Command): Command {
  return command
    .option('-c, --connectstring <connectstring>', 'management servers, as NDB tools take them (default: NDB_CONNECTSTRING, Ndb.cfg, localhost:1186)')
    .option('--timeout <ms>', 'connect and reply timeout in milliseconds', intOption(100, 600_000), 5000);
}

/** -c wins, then NDB_CONNECTSTRING and Ndb.cfg, then localhost:1186, as mgmapi resolves it (spec §2.1). */
export function connectstringFrom(opts: { connectstring?: string }): ResolvedConnectstring {
  return resolveConnectstring({ explicit: opts.connectstring });
}

export interface FailoverOpts {
  failover?: FailoverPolicy;
}

/** `--failover` of the commands that run the engine: what the Settings view's "Failover" sets, for this run. */
export function addFailoverOption(command: Command): Command {
  return command.addOption(
    new Option('--failover <policy>', 'fail over also to management servers the configuration lists (from-config), or only to the connectstring\'s (connectstring-only); default: the saved setting, else from-config').choices(
      FAILOVER_POLICIES,
    ),
  );
}
