import { resultReply } from '../wire/reply.js';
import type { CommandHandler } from './context.js';

/**
 * Commands a monitor never sends (spec §4.22). The simulator knows them, so the parser treats their arguments
 * as the server does, and answers each with its usual header and a refusal: it opens no transporters and changes
 * no configuration (`get nodeid` is served: config-commands.ts). `transporter connect` ends the session, as on the server.
 */
const NEVER = [
  'set ports',
  'insert error',
  'set trace',
  'log signals',
  'start signallog',
  'stop signallog',
  'set parameter',
  'set connection parameter',
  'get connection parameter',
  'set config',
  'set config_v2',
  'reload config',
  'create nodegroup',
  'drop nodegroup',
] as const;

/** Header of each refused command's reply; `set config_v2` answers like `set config`. */
const headerOf = (name: string): string => `${name.replace(/_v2$/, '')} reply`;

export const OTHER_COMMANDS: Record<string, CommandHandler> = {
  ...Object.fromEntries(
    NEVER.map((name): [string, CommandHandler] => [name, () => resultReply(headerOf(name), `${name} is not supported by the ndbtop simulator`)]),
  ),
  'transporter connect': (ctx) => {
    ctx.session.closeAfterReply();
    return '';
  },
};
