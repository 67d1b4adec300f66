import type { Reply } from '../frames.js';
import { acceptReply, type ReplyFields } from './reply-fields.js';

/**
 * Replies whose only news is `result:`. The success word differs by command (spec pitfall 16): `Ok` for most,
 * `ok` for `report event`.
 */
export function parseResultReply(reply: Reply, command: string, success = 'Ok'): ReplyFields {
  return acceptReply(reply, command).fields.expectResult(success);
}
