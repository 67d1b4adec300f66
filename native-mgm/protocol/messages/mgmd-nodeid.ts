import type { Reply } from '../frames.js';
import { acceptReply } from './reply-fields.js';

/** `get mgmd nodeid` answers `nodeid:1` with no space (spec §4.4); the key split does not care. */
export function parseMgmdNodeIdReply(reply: Reply): number {
  return acceptReply(reply, 'get mgmd nodeid').fields.int('nodeid');
}
