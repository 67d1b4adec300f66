import type { Reply } from '../frames.js';
import { parseResultReply } from './result.js';

/** `start backup reply` carries `id` only when the request asked to wait (`completed` != 0), spec §4.12. */
export function parseStartBackupReply(reply: Reply): { backupId: number | null } {
  return { backupId: parseResultReply(reply, 'start backup').optInt('id') };
}
