import { ProtocolError } from '../../errors.js';
import { EventRecordParser, parseEventRecord } from '../../events/parse-event.js';
import type { ClusterEvent } from '../../types.js';
import type { Frame, RecordSink, Reply } from '../frames.js';
import { parseResultReply } from './result.js';

/**
 * The records of one `dump events` reply, typed as the reader frames them, where their lines lie (the event
 * stream's parser): the engine asks every data node for its memory every ~15 s, and records kept as text pairs
 * were turned back into bytes to be parsed. A malformed record fails the request, not the session.
 */
export class DumpEventRecords implements RecordSink {
  private readonly parser = new EventRecordParser(() => 0);
  private readonly events: ClusterEvent[] = [];
  private error: ProtocolError | null = null;

  begin(): void {
    this.parser.begin();
  }

  field(bytes: Buffer, keyStart: number, keyEnd: number, valueStart: number, valueEnd: number): boolean {
    return this.parser.field(bytes, keyStart, keyEnd, valueStart, valueEnd);
  }

  end(): Frame {
    try {
      // Stamped when the whole reply is parsed, as one round (`take`).
      const event = this.parser.build(0);
      this.events.push(event);
      return { type: 'event', event };
    } catch (err) {
      if (!(err instanceof ProtocolError)) throw err;
      this.error ??= err;
      return { type: 'error', error: err, fatal: false };
    }
  }

  /** The reply's events, each received at `receivedAt`; throws the first malformed record's error. */
  take(receivedAt: number): ClusterEvent[] {
    if (this.error) throw this.error;
    for (const e of this.events) e.receivedAt = receivedAt;
    return this.events;
  }
}

/**
 * `dump events` returns its records inline on the command connection (spec §4.10); `records`: the sink the
 * request's shape gave them to, else they are in the reply as pairs.
 */
export function parseDumpEventsReply(reply: Reply, receivedAt: number, records?: DumpEventRecords): ClusterEvent[] {
  parseResultReply(reply, 'dump events');
  if (reply.kind !== 'reply') return [];
  return records ? records.take(receivedAt) : reply.records.map((r) => parseEventRecord(r, receivedAt));
}
