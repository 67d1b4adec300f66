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

/** `set logfilter` level 7 is ALL (spec §6.7): it switches every severity, 0 ("enabled") included. */
const ALL_SEVERITIES = 7;

/** The new state of severity `level` after `enable` (1 on, 0 off, negative toggle), as the server's filter does. */
function setLogFilter(severities: boolean[], level: number, enable: number): boolean {
  const switchTo = (current: boolean): boolean => (enable < 0 ? !current : enable !== 0);
  if (level === ALL_SEVERITIES) {
    // ALL counts as on when every real severity (1..6) is.
    severities.fill(switchTo(severities.slice(1).every(Boolean)));
    return severities.slice(1).every(Boolean);
  }
  const current = severities[level];
  if (current === undefined) return false;
  severities[level] = switchTo(current);
  return severities[level];
}

export const LOG_COMMANDS: Record<string, CommandHandler> = {
  'get status': (ctx) =>
    formatStatus(
      statusRows(ctx.mgmd.model, ctx.mgmd.nodeId),
      parseTypes(stringArg(ctx, 'types')),
      ctx.session.clientVersion >= SINGLE_USER_FIELD_SINCE && ctx.mgmd.version >= SINGLE_USER_FIELD_SINCE,
    ),
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
