import type { Frame, RecordSink } from './frames.js';

/** Keeps each event record as its key/value pairs, for readers that type records later (or never). */
export class PairsRecordSink implements RecordSink {
  private pairs: Array<readonly [string, string]> = [];

  begin(): void {
    this.pairs = [];
  }

  field(keyText: string, keyStart: number, keyEnd: number, valueText: string, valueStart: number, valueEnd: number): boolean {
    this.pairs.push([keyText.slice(keyStart, keyEnd), valueText.slice(valueStart, valueEnd)]);
    return true;
  }

  end(): Frame {
    return { type: 'record', pairs: this.pairs };
  }
}
