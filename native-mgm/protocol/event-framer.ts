import { ProtocolError } from '../errors.js';
import type { Frame, ReaderLimits, RecordSink } from './frames.js';
import { ascii, blankSkip, blankTrim, clip, hasAt, recordSeparator } from './kv.js';
import type { LineBuffer } from './line-buffer.js';
import { PairsRecordSink } from './pairs-record-sink.js';

const RECORD_HEADER = 'log event reply';
const PING = '<PING>';
export const RECORD_HEADER_BYTES = ascii(RECORD_HEADER);
const PING_BYTES = ascii(PING);
/** The two lines as the server writes them, LF included: what the event fast path looks for. */
const RECORD_HEADER_LINE = ascii(`${RECORD_HEADER}\n`);
const PING_LINE = ascii(`${PING}\n`);

type Emit = (frame: Frame) => void;

/**
 * The event stream after `listen event` (spec §6.2): records and `<PING>` lines from the StreamReader's lines,
 * each record typed by its sink. A bad record is reported (not fatal) and reading resumes at the next record.
 */
export class EventFramer {
  /** Where event records go: the listen shape's sink, else plain pairs. */
  sink: RecordSink = new PairsRecordSink();
  /** Lines of the event record being read, or -1 outside a record. */
  private recordLines = -1;
  /** Set while skipping the rest of a record that was already reported as malformed. */
  private skippingRecord = false;

  constructor(
    private readonly lines: LineBuffer,
    private readonly limits: ReaderLimits,
  ) {}

  /** Records and pings between records, each read whole in place while they come exactly as the server writes them. */
  fast(emit: Emit): void {
    if (this.recordLines >= 0 || this.skippingRecord) return;
    const sink = this.sink;
    const { maxLineBytes, maxRecordLines } = this.limits;
    if (sink.record === undefined || maxLineBytes < RECORD_HEADER.length) return;
    const lines = this.lines;
    const b = lines.bytes;
    let pos = lines.next;
    for (;;) {
      if (hasAt(b, pos, b.length, RECORD_HEADER_LINE)) {
        sink.begin();
        const to = sink.record(b, pos + RECORD_HEADER_LINE.length, b.length, maxLineBytes, maxRecordLines);
        if (to < 0) return;
        pos = to;
        lines.skipTo(pos);
        emit(this.endRecord());
      } else if (hasAt(b, pos, b.length, PING_LINE)) {
        pos += PING_LINE.length;
        lines.skipTo(pos);
        emit({ type: 'ping' });
      } else return;
    }
  }

  /** The line the reader framed last, in the event stream. */
  line(emit: Emit): void {
    const lines = this.lines;
    const empty = lines.lineEnd === lines.lineStart;
    if (this.skippingRecord) {
      if (empty) this.skippingRecord = false;
      else if (lines.lineIs(RECORD_HEADER_BYTES)) {
        this.skippingRecord = false;
        this.beginRecord();
      }
      return;
    }
    if (this.recordLines < 0) {
      if (lines.lineIs(PING_BYTES)) emit({ type: 'ping' });
      else if (lines.lineIs(RECORD_HEADER_BYTES)) this.beginRecord();
      else if (!empty) emit({ type: 'stray-line', line: clip(lines.line()) });
      return;
    }
    if (empty) {
      this.recordLines = -1;
      emit(this.endRecord());
      return;
    }
    const header = lines.lineIs(RECORD_HEADER_BYTES);
    if (header || lines.lineIs(PING_BYTES)) {
      // The server writes records whole under a lock, so neither can appear inside one (§6.2): the record
      // we were reading lost its end; drop it and carry on with what just started.
      emit({ type: 'error', error: new ProtocolError('event record cut short', `by ${JSON.stringify(lines.line())}`), fatal: false });
      this.recordLines = -1;
      if (header) this.beginRecord();
      else emit({ type: 'ping' });
      return;
    }
    const { bytes, lineStart, lineEnd } = lines;
    const sep = recordSeparator(bytes, lineStart, lineEnd);
    if (sep < 0 || this.recordLines >= this.limits.maxRecordLines) {
      const why = sep < 0 ? `line without "=": ${JSON.stringify(clip(lines.line()))}` : 'too many lines';
      emit({ type: 'error', error: new ProtocolError('malformed event record', why), fatal: false });
      this.recordLines = -1;
      this.skippingRecord = true;
      return;
    }
    this.recordLines++;
    const keyStart = blankSkip(bytes, lineStart, sep);
    const valueStart = blankSkip(bytes, sep + 1, lineEnd);
    this.sink.field(bytes, keyStart, blankTrim(bytes, keyStart, sep), valueStart, blankTrim(bytes, valueStart, lineEnd));
  }

  /** The record just ended as its frame; a malformed one is reported and the stream goes on. */
  private endRecord(): Frame {
    try {
      return this.sink.end();
    } catch (err) {
      if (!(err instanceof ProtocolError)) throw err;
      return { type: 'error', error: err, fatal: false };
    }
  }

  private beginRecord(): void {
    this.recordLines = 0;
    this.sink.begin();
  }
}
