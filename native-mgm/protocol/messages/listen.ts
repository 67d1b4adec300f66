import { CommandFailedError } from '../../errors.js';
import type { Reply } from '../frames.js';
import { acceptReply } from './reply-fields.js';

/** `listen event` answers `result: 0`, or `result: -1` with the reason in `msg` (spec §6.1). */
export function parseListenReply(reply: Reply): void {
  const { fields } = acceptReply(reply, 'listen event');
  if (fields.str('result') !== '0') {
    throw new CommandFailedError('listen event', fields.optStr('msg') ?? `result ${fields.str('result')}`);
  }
}
