import type { SimEvent } from '../state/sim-event.js';
import { parseEventFilter } from '../wire/event-filter.js';
import { formatEventRecord } from '../wire/event-record.js';
import { parseNodeMask } from '../wire/node-mask.js';
import { reply, resultReply } from '../wire/reply.js';
import { scanUnsigned } from '../wire/request-parser.js';
import { flagArg, intArg, stringArg, type CommandContext, type CommandHandler } from './context.js';

/** `report event` reads at most this many words (MAX_EVENT_LENGTH, spec §1.6). */
const MAX_EVENT_WORDS = 25;
const DUMPABLE = { memoryUsage: 50, backupStatus: 62, savedEvent: 81 } as const;

function listenEvent(ctx: CommandContext): string {
  const parsed = parseEventFilter(stringArg(ctx, 'filter') ?? '');
  if ('error' in parsed) return reply('listen event', [['result', -1], ['msg', parsed.error]]);
  // Any non-zero value selects the parsable format: the spec names only 1 and 0; the server tests `if (parsable)`.
  ctx.session.becomeListener(parsed.levels, flagArg(ctx, 'parsable'));
  return resultReply('listen event', 0);
}

/** Word 0 is (source << 16) | type, the rest the body; missing or unreadable words count as 0. */
function reportEvent(ctx: CommandContext): string {
  const length = Math.min(intArg(ctx, 'length'), MAX_EVENT_WORDS);
  const items = (stringArg(ctx, 'data') ?? '').split(' ');
  const words = Array.from({ length }, (_, i) => scanUnsigned(items[i] ?? '') ?? 0);
  const head = words[0] ?? 0;
  // The mgmd logs the event itself and hands it to its own listeners only.
  ctx.mgmd.model.emit({ type: head & 0xffff, source: head >>> 16, body: words.slice(1), mgmd: ctx.mgmd.nodeId });
  return resultReply('report event reply', 'ok');
}

/**
 * Reports answered inline on the command connection (spec §4.10, §14.5). Of the ids asked, only data nodes that are
 * connected are asked; the others (API or management ids, unused ids, data nodes down) are dropped silently.
 */
function dumpEvents(ctx: CommandContext): string {
  const header = 'dump events reply';
  const type = intArg(ctx, 'type');
  if (!(Object.values(DUMPABLE) as number[]).includes(type)) return resultReply(header, `ndb_logevent_type ${type} not supported`);
  const text = stringArg(ctx, 'nodes');
  const asked = text === undefined ? [] : parseNodeMask(text);
  if (asked === null) return resultReply(header, `invalid nodes: '${text ?? ''}'`);
  const model = ctx.mgmd.model;
  const targets = asked.length === 0 ? [...model.data.keys()] : asked;
  const connected = targets.filter((id) => {
    const status = model.data.get(id)?.status;
    return status !== undefined && status !== 'NO_CONTACT';
  });
  let records: SimEvent[] = [];
  if (type === DUMPABLE.memoryUsage) records = connected.flatMap((id) => model.memory.report(id));
  if (type === DUMPABLE.backupStatus) records = model.backups.statusReports().filter((e) => connected.includes(e.source));
  return reply(header, [['result', 'Ok'], ['events', records.length]]) + records.map(formatEventRecord).join('');
}

export const EVENT_COMMANDS: Record<string, CommandHandler> = {
  'listen event': listenEvent,
  'report event': reportEvent,
  'dump events': dumpEvents,
};
