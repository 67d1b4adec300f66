import { COMMANDS } from '../wire/command-table.js';
import { BACKUP_COMMANDS } from './backup-commands.js';
import { CONFIG_COMMANDS } from './config-commands.js';
import type { CommandHandler } from './context.js';
import { EVENT_COMMANDS } from './event-commands.js';
import { LOG_COMMANDS } from './log-commands.js';
import { NODE_COMMANDS } from './node-commands.js';
import { OTHER_COMMANDS } from './other-commands.js';
import { SESSION_COMMANDS } from './session-commands.js';
import { TLS_COMMANDS } from './tls-commands.js';

/** Every command of the table has exactly one handler; checked at load so a missing one fails loudly. */
export const HANDLERS: ReadonlyMap<string, CommandHandler> = new Map(
  Object.entries({
    ...SESSION_COMMANDS,
    ...LOG_COMMANDS,
    ...EVENT_COMMANDS,
    ...NODE_COMMANDS,
    ...BACKUP_COMMANDS,
    ...CONFIG_COMMANDS,
    ...OTHER_COMMANDS,
    ...TLS_COMMANDS,
  }),
);

for (const name of COMMANDS.keys()) {
  if (!HANDLERS.has(name)) throw new Error(`simulator: no handler for command '${name}'`);
}
