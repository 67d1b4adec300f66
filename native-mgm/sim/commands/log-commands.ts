import { CATEGORIES, CATEGORY_NUMBERS, type Category } from '../../events/catalogue.js';
import { encodeVersion } from '../../version.js';
import { SEVERITY_KEYS } from '../wire/cluster-log.js';
import { reply, resultReply } from '../wire/reply.js';
import { formatStatus, parseTypes, statusRows } from '../wire/status-report.js';
import { intArg, stringArg, type CommandHandler } from './context.js';

/**
 * `get status` shows `is_single_user` to clients that announced 8.0.22 or later (spec §4.2); a server older than
 * that has no such field to show (the spec does not say so; it is where the field came in).
 */
const SINGLE_USER_FIELD_SINCE = encodeVersion(8, 0, 22);
const MAX_LEVEL = 15;

const categoryOf = (n: number): Category | undefined => CATEGORIES.find((c) => CATEGORY_NUMBERS[c] === n);

/** `set logfilter` level 7 is ALL (spec §14.1): a switch for all eight flags, not a severity. */
const ALL_SEVERITIES = 7;

/** `Logger::isEnable`: ALL counts as on only when flags 1..7 are, its own flag included. */
function isEnabled(flags: readonly boolean[], level: number): boolean {
  return level === ALL_SEVERITIES ? flags.slice(1).every(Boolean) : (flags[level] ?? false);
}

/**
 * The reply to `set logfilter`: `enable` 1 on, 0 off, negative toggles; ALL sets or clears every flag, the master
 * switch too. Levels past 7 index beyond the server's array (undefined there): nothing changes and the answer is 0.
 */
function setLogFilter(flags: boolean[], level: number, enable: number): boolean {
  if (level > ALL_SEVERITIES) return false;
  const on = enable < 0 ? !isEnabled(flags, level) : enable !== 0;
  if (level === ALL_SEVERITIES) flags.fill(on);
  else flags[level] = on;
  return isEnabled(flags, level);
}

export const LOG_COMMANDS: Record<string, CommandHandler> = {
  'get status': (ctx) => {
    ctx.mgmd.model.statusRead();
    return formatStatus(
      statusRows(ctx.mgmd.model, ctx.mgmd.nodeId),
      parseTypes(stringArg(ctx, 'types')),
      ctx.session.clientVersion >= SINGLE_USER_FIELD_SINCE && ctx.mgmd.version >= SINGLE_USER_FIELD_SINCE,
    );
  },
  'get info clusterlog': (ctx) =>
    reply(
      'clusterlog',
      SEVERITY_KEYS.map((k, i) => [k, ctx.mgmd.clusterLog.severities[i] ? 1 : 0] as const),
    ),
  'set logfilter': (ctx) => {
    const on = setLogFilter(ctx.mgmd.clusterLog.severities, intArg(ctx, 'level'), intArg(ctx, 'enable') | 0);
    return resultReply('set logfilter reply', on ? 1 : 0);
  },
  // The header is the command itself, with no "reply" (spec §4.9).
  'get cluster loglevel': (ctx) =>
    reply(
      'get cluster loglevel',
      CATEGORIES.map((c) => [c.toLowerCase(), ctx.mgmd.clusterLog.levels.get(c) ?? 0] as const),
    ),
  'set cluster loglevel': (ctx) => {
    const header = 'set cluster loglevel reply';
    const level = intArg(ctx, 'level');
    // The server prints the level with %d: `level: -1` arrives as 4294967295 and is printed as -1.
    if (level > MAX_LEVEL) return resultReply(header, `Invalid loglevel ${level | 0}`);
    const number = intArg(ctx, 'category');
    const category = categoryOf(number);
    if (!category) return resultReply(header, `Invalid category ${(number - CATEGORY_NUMBERS.STARTUP) | 0}`);
    ctx.mgmd.clusterLog.levels.set(category, level);
    return resultReply(header, 'Ok');
  },
  // Only raises what data nodes report; listeners filter on their own levels, so nothing else changes here.
  // The spec gives it no category error (the server does not check the category here).
  'set loglevel': (ctx) => resultReply('set loglevel reply', intArg(ctx, 'level') > MAX_LEVEL ? 'Invalid loglevel: ' : 'Ok'),
};
