import { mgmErrorText, MGM_ERROR, type OperationResult } from '../operations/mgm-errors.js';
import { restartAll, restartNodes, startAll, startNode, stopAll, stopNodes } from '../operations/node-operations.js';
import { parseNodeList } from '../operations/shutdown-checks.js';
import { reply, resultReply } from '../wire/reply.js';
import { flagArg, intArg, stringArg, type CommandContext, type CommandHandler } from './context.js';

/** `dump state` takes at most 25 integers (spec §1.6); DUMP 1000 makes a node report its memory usage, 2399 its redo log parts. */
const MAX_DUMP_ARGS = 25;
const DUMP_MEMORY_USAGE = 1000;
const DUMP_REDO_STATUS = 2399;

/**
 * Restart replies put the error number first (`5028-Node shutdown…`), stop replies do not (spec §4.13/§4.14).
 * `disconnect` only in the v2 commands and `stop all` with a `stop` argument.
 */
function nodeReply(header: string, countKey: string, r: OperationResult, numbered: boolean, withDisconnect: boolean): string {
  const result = r.ok ? 'Ok' : numbered ? `${r.code}-${mgmErrorText(r.code)}` : mgmErrorText(r.code);
  const pairs: Array<[string, string | number]> = [['result', result], [countKey, r.ok ? r.count : 0]];
  if (withDisconnect) pairs.push(['disconnect', r.ok && r.disconnect ? 1 : 0]);
  return reply(header, pairs);
}

const ops = (ctx: CommandContext) => ctx.mgmd.model.operations(ctx.mgmd.nodeId);

const restartFlags = (ctx: CommandContext) => ({
  initial: flagArg(ctx, 'initialstart'),
  nostart: flagArg(ctx, 'nostart'),
  abort: flagArg(ctx, 'abort'),
  force: flagArg(ctx, 'force'),
});

async function restart(ctx: CommandContext, v2: boolean): Promise<string> {
  const r = await restartNodes(ops(ctx), parseNodeList(stringArg(ctx, 'node') ?? ''), restartFlags(ctx));
  return nodeReply('restart reply', 'restarted', r, true, v2);
}

async function stop(ctx: CommandContext, v2: boolean): Promise<string> {
  const r = await stopNodes(ops(ctx), parseNodeList(stringArg(ctx, 'node') ?? ''), flagArg(ctx, 'abort'), flagArg(ctx, 'force'));
  return nodeReply('stop reply', 'stopped', r, false, v2);
}

function dumpState(ctx: CommandContext): string {
  const header = 'dump state reply';
  const node = ctx.mgmd.model.data.get(intArg(ctx, 'node'));
  if (!node) return resultReply(header, mgmErrorText(MGM_ERROR.wrongProcessType));
  if (node.status === 'NO_CONTACT') return resultReply(header, mgmErrorText(MGM_ERROR.noContactWithProcess));
  const words = (stringArg(ctx, 'args') ?? '').split(' ').filter((w) => w !== '');
  if (words.length > MAX_DUMP_ARGS || words.some((w) => w.length > 11)) return resultReply(header, 'Too many arguments');
  if (Number(words[0]) === DUMP_MEMORY_USAGE) ctx.mgmd.model.emit(...ctx.mgmd.model.memory.report(node.id));
  if (Number(words[0]) === DUMP_REDO_STATUS) ctx.mgmd.model.reportRedoStatus(node.id);
  return resultReply(header, 'Ok');
}

export const NODE_COMMANDS: Record<string, CommandHandler> = {
  'restart node v2': (ctx) => restart(ctx, true),
  'restart node': (ctx) => restart(ctx, false),
  'restart all': async (ctx) => nodeReply('restart reply', 'restarted', await restartAll(ops(ctx), restartFlags(ctx)), true, false),
  'stop v2': (ctx) => stop(ctx, true),
  stop: (ctx) => stop(ctx, false),
  'stop all': async (ctx) => {
    const what = stringArg(ctx, 'stop');
    const r = await stopAll(ops(ctx), flagArg(ctx, 'abort'), what === undefined || what.includes('db'), what?.includes('mgm') ?? false);
    return nodeReply('stop reply', 'stopped', r, false, what !== undefined);
  },
  start: (ctx) => {
    const r = startNode(ops(ctx), intArg(ctx, 'node'));
    return resultReply('start reply', r.ok ? 'Ok' : mgmErrorText(r.code));
  },
  'start all': (ctx) => {
    const r = startAll(ops(ctx));
    return reply('start reply', [['result', 'Ok'], ['started', r.ok ? r.count : 0]]);
  },
  'enter single user': async (ctx) => {
    const r = await ctx.mgmd.model.enterSingleUser(intArg(ctx, 'nodeId'));
    return resultReply('enter single user reply', r.ok ? 'Ok' : mgmErrorText(r.code));
  },
  'exit single user': (ctx) => {
    ctx.mgmd.model.exitSingleUser();
    return resultReply('exit single user reply', 'Ok');
  },
  'dump state': dumpState,
};

