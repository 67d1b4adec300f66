import { mgmErrorText } from '../operations/mgm-errors.js';
import { reply, resultReply } from '../wire/reply.js';
import { intArg, type CommandHandler } from './context.js';

/** `completed`: 0 reply at once, 1 after the backup started, 2 (default) after it completed (spec §4.12). */
const WAIT = { none: 0, started: 1 } as const;
const HEADER = 'start backup reply';

export const BACKUP_COMMANDS: Record<string, CommandHandler> = {
  'start backup': async (ctx) => {
    const wait = intArg(ctx, 'completed', 2);
    const handle = ctx.mgmd.model.backups.start(intArg(ctx, 'backupid'));
    if ('error' in handle) return resultReply(HEADER, mgmErrorText(handle.error));
    if (wait === WAIT.none) return resultReply(HEADER, 'Ok');
    const outcome = await (wait === WAIT.started ? handle.started : handle.completed);
    return outcome.ok ? reply(HEADER, [['result', 'Ok'], ['id', handle.id]]) : resultReply(HEADER, mgmErrorText(outcome.code));
  },
  'abort backup': (ctx) => {
    ctx.mgmd.model.backups.abort(intArg(ctx, 'id'));
    return resultReply('abort backup reply', 'Ok');
  },
};
