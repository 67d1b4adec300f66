import type { Frame, RecordSink } from './frames.js';
import { text } from './kv.js';

/** Keeps each event record as its key/value pairs, for readers that type records later (or never). */
export class PairsRecordSink implements RecordSink {
  private pairs: Array<readonly [string, string]> = [];

  begin(): void {
    this.pairs = [];
  }

  field(bytes: Buffer, keyStart: number, keyEnd: number, valueStart: number, valueEnd: number): boolean {
    this.pairs.push([text(bytes, keyStart, keyEnd), text(bytes, valueStart, valueEnd)]);
    return true;
  }

  end(): Frame {
    return { type: 'record', pairs: this.pairs };
  }
}
