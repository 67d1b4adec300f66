import { CATEGORIES, CATEGORY_NUMBERS, type Category } from '../../events/catalogue.js';
import { encodeVersion } from '../../version.js';
import { SEVERITY_KEYS } from '../wire/cluster-log.js';
import { reply, resultReply } from '../wire/reply.js';
import { formatStatus, parseTypes, statusRows } from '../wire/status-report.js';
import { intArg, stringArg, type CommandContext, type CommandHandler } from './context.js';

/** `get status` shows `is_single_user` to clients that announced 8.0.22 or later (spec §4.2). */
const SINGLE_USER_FIELD_SINCE = encodeVersion(8, 0, 22);
const MAX_LEVEL = 15;

const categoryOf = (n: number): Category | undefined => CATEGORIES.find((c) => CATEGORY_NUMBERS[c] === n);

/** Shared checks of `set cluster loglevel` and `set loglevel`; returns an error reply or the category. */
function checkLevelArgs(ctx: CommandContext, levelError: string): { error: string } | { category: Category } {
  if (intArg(ctx, 'level') > MAX_LEVEL) return { error: levelError };
  const number = intArg(ctx, 'category');
  const category = categoryOf(number);
  return category ? { category } : { error: `Invalid category ${(number - CATEGORY_NUMBERS.STARTUP) | 0}` };
}

export const LOG_COMMANDS: Record<string, CommandHandler> = {
  'get status': (ctx) =>
    formatStatus(
      statusRows(ctx.mgmd.model, ctx.mgmd.nodeId),
      parseTypes(stringArg(ctx, 'types')),
      ctx.session.clientVersion >= SINGLE_USER_FIELD_SINCE,
    ),
  'get info clusterlog': (ctx) =>
    reply(
      'clusterlog',
      SEVERITY_KEYS.map((k, i) => [k, ctx.mgmd.clusterLog.severities[i] ? 1 : 0] as const),
    ),
  'set logfilter': (ctx) => {
    const level = intArg(ctx, 'level');
    const enable = intArg(ctx, 'enable') | 0;
    const severities = ctx.mgmd.clusterLog.severities;
    const current = severities[level];
    if (current === undefined) return resultReply('set logfilter reply', 0);
    severities[level] = enable < 0 ? !current : enable !== 0;
    return resultReply('set logfilter reply', severities[level] ? 1 : 0);
  },
  // The header is the command itself, with no "reply" (spec §4.9).
  'get cluster loglevel': (ctx) =>
    reply(
      'get cluster loglevel',
      CATEGORIES.map((c) => [c.toLowerCase(), ctx.mgmd.clusterLog.levels.get(c) ?? 0] as const),
    ),
  'set cluster loglevel': (ctx) => {
    // The server prints the level with %d: `level: -1` arrives as 4294967295 and is printed as -1.
    const checked = checkLevelArgs(ctx, `Invalid loglevel ${intArg(ctx, 'level') | 0}`);
    if ('error' in checked) return resultReply('set cluster loglevel reply', checked.error);
    ctx.mgmd.clusterLog.levels.set(checked.category, intArg(ctx, 'level'));
    return resultReply('set cluster loglevel reply', 'Ok');
  },
  // Only raises what data nodes report; listeners filter on their own levels, so nothing else changes here.
  'set loglevel': (ctx) => {
    const checked = checkLevelArgs(ctx, 'Invalid loglevel: ');
    return resultReply('set loglevel reply', 'error' in checked ? checked.error : 'Ok');
  },
};
