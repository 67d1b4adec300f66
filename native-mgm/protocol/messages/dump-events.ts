import { parseEventRecord } from '../../events/parse-event.js';
import type { ClusterEvent } from '../../types.js';
import type { Reply } from '../frames.js';
import { parseResultReply } from './result.js';

/** `dump events` returns its records inline on the command connection (spec §4.10). */
export function parseDumpEventsReply(reply: Reply, receivedAt: number): ClusterEvent[] {
  parseResultReply(reply, 'dump events');
  if (reply.kind !== 'reply') return [];
  return reply.records.map((r) => parseEventRecord(r, receivedAt));
}
