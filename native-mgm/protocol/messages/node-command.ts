import type { Reply } from '../frames.js';
import { parseResultReply } from './result.js';

export interface NodeCommandResult {
  /** How many nodes the stop/restart/start order reached. */
  count: number;
  /** true when the order includes the management server we talk to, which will go away; null when not sent. */
  disconnect: boolean | null;
}

/**
 * `stop reply` and `restart reply` (spec §4.13, §4.14). A refusal keeps the server's text as it is, including
 * restart's numeric prefix (`5028-Node shutdown would cause system crash: ...`).
 */
export function parseNodeCommandReply(reply: Reply, command: string, countKey: 'stopped' | 'restarted' | 'started'): NodeCommandResult {
  const fields = parseResultReply(reply, command);
  const disconnect = fields.optInt('disconnect');
  return { count: fields.int(countKey), disconnect: disconnect === null ? null : disconnect !== 0 };
}
