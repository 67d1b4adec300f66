import { ProtocolError } from '../errors.js';
import { DEFAULT_LIMITS, type FieldSink, type Frame, type Pairs, type ReaderLimits, type ReplyShape } from './frames.js';
import { LineBuffer } from './line-buffer.js';
import { EventFramer, RECORD_HEADER_BYTES } from './event-framer.js';
import { blankSkip, blankTrim, byteIn, clip, COLON, recordSeparator, text } from './kv.js';

const PARSER_ERROR_PREFIX = 'result: ';
const AUTH_FAILED = 'Authorization failed';

/**
 * A first line that reads as a sentence of the server's own (letters first; words, digits and plain punctuation;
 * no reply header of another command, which would mean the replies are out of step): what a management server
 * may answer while it starts (the spec gives no such text, so any sentence is taken). Anything else where a header
 * belongs (binary bytes, another protocol's greeting, another command's reply) stays fatal.
 */
function serverWords(line: string): boolean {
  return /^[A-Za-z][A-Za-z0-9 ,.;:'()-]*$/.test(line) && !line.endsWith(' reply') && !(Object.values(HEADERS) as string[]).includes(line);
}

type Emit = (frame: Frame) => void;

interface ReplyInProgress {
  shape: ReplyShape;
  hasArgs: boolean;
  kind: 'reply' | 'parser-error' | 'auth-failed' | 'unexpected';
  header: string;
  pairs: Array<readonly [string, string]>;
  lines: string[];
  bytes: number;
  /** The kv sink's fast path, for a reply (not an error) whose sink has one. */
  fast: Required<FieldSink> | null;
  stage: 'head' | 'records' | 'body';
  records: Pairs[];
  /** The record being read, as pairs (or [] while a sink takes its lines); null between records. */
  record: Array<readonly [string, string]> | null;
  recordLines: number;
  recordsLeft: number;
  bodyBytes: number;
}

/**
 * Turns the bytes of one management connection into frames, in the spirit of pg-protocol's parser: feed it
 * chunks split anywhere, it keeps the leftovers and emits each reply, record or ping once it is complete.
 *
 * Command replies cannot be framed without knowing the request (a header-less parser error, a one-line
 * `end session reply`, a body after `get config reply`), so the client announces each request's shape with
 * `expect()` in the order it sends them. After `listen event` succeeds the reader switches itself to the
 * event stream at the exact byte the reply ended, since the first records may share that chunk.
 *
 * Nothing throws out of `feed`: malformed input becomes an `error` frame. In a command stream every error is
 * fatal (the reply boundaries are lost); in the event stream a bad record is dropped and reading goes on at
 * the next record header.
 */
export class StreamReader {
  private readonly lines: LineBuffer;
  private readonly limits: ReaderLimits;
  private readonly expected: Array<{ shape: ReplyShape; hasArgs: boolean }> = [];
  private mode: 'command' | 'events' | 'dead' = 'command';
  private cur: ReplyInProgress | null = null;
  private readonly events: EventFramer;

  constructor(limits: Partial<ReaderLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.lines = new LineBuffer(this.limits.maxLineBytes);
    this.events = new EventFramer(this.lines, this.limits);
  }

  get isEventStream(): boolean {
    return this.mode === 'events';
  }

  get isDead(): boolean {
    return this.mode === 'dead';
  }

  /** Bytes held for a frame that is not complete yet. */
  get buffered(): number {
    return this.lines.buffered;
  }

  get pendingReplies(): number {
    return this.expected.length + (this.cur === null ? 0 : 1);
  }

  /**
   * Announces the next reply. For a request with argument lines a parser error means more error replies
   * follow (§1.4, pitfall 3), possibly in the same chunk; the reader then swallows them until the
   * `check connection` the client sends next is answered, so the caller must send exactly that.
   */
  expect(shape: ReplyShape, hasArgs = false): void {
    this.expected.push({ shape, hasArgs });
  }

  /** Starts in event-stream mode, for a reader attached after `listen event` was answered elsewhere. */
  startEventStream(): void {
    this.mode = 'events';
  }

  feed(chunk: Uint8Array, emit: Emit): void {
    if (this.mode === 'dead') return;
    try {
      this.lines.push(chunk);
      this.drain(emit);
    } catch (err) {
      // Only our own ProtocolErrors are thrown below; anything else is a bug, but must not escape either.
      const error = err instanceof ProtocolError ? err : new ProtocolError('internal reader error', String(err));
      this.fail(error, emit);
    }
  }

  private fail(error: ProtocolError, emit: Emit): void {
    this.mode = 'dead';
    this.cur = null;
    this.expected.length = 0;
    emit({ type: 'error', error, fatal: true });
  }

  private drain(emit: Emit): void {
    while (this.mode !== 'dead') {
      const cur = this.cur;
      if (cur?.stage === 'body') {
        if (!this.takeBody(cur, emit)) return;
        continue;
      }
      // The fast paths take what they can read in one pass; the line the reader frames next is one they left.
      if (cur?.fast) this.fastLines(cur, cur.fast);
      else if (this.mode === 'events') this.events.fast(emit);
      if (!this.lines.advance()) return;
      if (this.mode === 'events') this.events.line(emit);
      else this.commandLine(emit);
    }
  }

  private commandLine(emit: Emit): void {
    const cur = this.cur;
    const lines = this.lines;
    if (cur === null) {
      this.startReply(lines.line(), lines.lineEnd - lines.lineStart + 1, emit);
      return;
    }
    const length = lines.lineEnd - lines.lineStart;
    cur.bytes += length + 1;
    if (cur.bytes > this.limits.maxReplyBytes) {
      throw new ProtocolError('reply too large', `over ${this.limits.maxReplyBytes} bytes`);
    }
    if (cur.stage === 'records') {
      this.dumpRecordLine(cur, emit);
      return;
    }
    if (length === 0) {
      this.finishHead(cur, emit);
      return;
    }
    if (cur.kind !== 'reply') {
      cur.lines.push(lines.line());
      return;
    }
    this.replyField(cur);
  }

  /** A `key: value` line, split at the first `:` (values may hold IPv6 addresses and further colons, §1.3). */
  private replyField(cur: ReplyInProgress): void {
    const { bytes, lineStart, lineEnd } = this.lines;
    const colon = byteIn(bytes, COLON, lineStart, lineEnd);
    if (colon < 0) {
      throw new ProtocolError(`malformed line in "${cur.header}"`, JSON.stringify(clip(this.lines.line())));
    }
    const keyStart = blankSkip(bytes, lineStart, colon);
    const keyEnd = blankTrim(bytes, keyStart, colon);
    const valueStart = blankSkip(bytes, colon + 1, lineEnd);
    const valueEnd = blankTrim(bytes, valueStart, lineEnd);
    const sink = cur.shape.kind === 'kv' ? cur.shape.sink : undefined;
    if (sink?.field(bytes, keyStart, keyEnd, valueStart, valueEnd)) return;
    cur.pairs.push([text(bytes, keyStart, keyEnd), text(bytes, valueStart, valueEnd)]);
  }

  /** Whole `key: value` lines read by the sink in place; bounded so a reply over the limit fails as it would line by line. */
  private fastLines(cur: ReplyInProgress, sink: Required<FieldSink>): void {
    const lines = this.lines;
    const from = lines.next;
    const end = Math.min(lines.bytes.length, from + this.limits.maxReplyBytes - cur.bytes);
    const to = sink.lines(lines.bytes, from, end, this.limits.maxLineBytes);
    if (to > from) {
      cur.bytes += to - from;
      lines.skipTo(to);
    }
  }

  /** `bytes`: the header line's length on the wire, LF included (`line` is UTF-8 text). */
  private startReply(line: string, bytes: number, emit: Emit): void {
    const next = this.expected.shift();
    if (next === undefined) throw new ProtocolError('unsolicited data from server', JSON.stringify(clip(line)));
    const { shape, hasArgs } = next;
    const header = shape.kind === 'kv' || shape.kind === 'line' ? shape.header : HEADERS[shape.kind];
    let kind: ReplyInProgress['kind'];
    if (line === header) kind = 'reply';
    else if (line.startsWith(PARSER_ERROR_PREFIX)) kind = 'parser-error';
    else if (line === AUTH_FAILED) kind = 'auth-failed';
    else if (shape.kind !== 'line' && shape.kind !== 'resync' && serverWords(line)) kind = 'unexpected';
    else throw new ProtocolError(`expected reply "${header}"`, `got ${JSON.stringify(clip(line))}`);

    if (shape.kind === 'resync' && kind === 'parser-error') this.expected.unshift(next);
    if (shape.kind === 'line' && kind === 'reply') {
      emit({ type: 'reply', reply: { kind: 'reply', header, pairs: [], records: [], body: null } });
      return;
    }
    this.cur = {
      shape,
      hasArgs,
      kind,
      header,
      pairs: [],
      lines: kind === 'parser-error' ? [line.slice(PARSER_ERROR_PREFIX.length)] : kind === 'unexpected' ? [line] : [],
      bytes,
      fast: kind === 'reply' && shape.kind === 'kv' && shape.sink?.lines ? (shape.sink as Required<FieldSink>) : null,
      stage: 'head',
      records: [],
      record: null,
      recordLines: 0,
      recordsLeft: 0,
      bodyBytes: 0,
    };
  }

  private finishHead(cur: ReplyInProgress, emit: Emit): void {
    if (cur.kind === 'parser-error' && cur.shape.kind === 'resync') {
      this.cur = null;
      return;
    }
    if (cur.kind === 'parser-error') {
      if (cur.hasArgs) this.expected.unshift({ shape: { kind: 'resync' }, hasArgs: false });
      // `Missing arg.` carries a newline as its token, so the message spans lines (§1.4, pitfall 2).
      this.complete({ type: 'reply', reply: { kind: 'parser-error', message: cur.lines.join('\n') } }, emit);
      return;
    }
    if (cur.kind === 'unexpected') {
      this.complete({ type: 'reply', reply: { kind: 'unexpected', expected: cur.header, lines: cur.lines.map(clip) } }, emit);
      return;
    }
    if (cur.kind === 'auth-failed') {
      const errorLine = cur.lines.find((l) => l.startsWith('Error:'));
      const message = errorLine === undefined ? cur.lines.join('\n') : errorLine.slice('Error:'.length).trim();
      this.complete({ type: 'reply', reply: { kind: 'auth-failed', message } }, emit);
      return;
    }
    // Only these shapes branch on the result; a 2,500-line status reply is not scanned for one.
    const result = cur.shape.kind === 'kv' ? undefined : valueOf(cur.pairs, 'result');
    if (cur.shape.kind === 'dump-events' && result === 'Ok') {
      const n = strictCount(valueOf(cur.pairs, 'events'), 'events', this.limits.maxDumpRecords);
      if (n > 0) {
        cur.stage = 'records';
        cur.recordsLeft = n;
        return;
      }
    }
    if (cur.shape.kind === 'config' && result === 'Ok') {
      cur.bodyBytes = strictCount(valueOf(cur.pairs, 'Content-Length'), 'Content-Length', this.limits.maxReplyBytes);
      cur.stage = 'body';
      return;
    }
    this.completeReply(cur, null, emit);
    if (cur.shape.kind === 'listen' && result === '0') {
      this.mode = 'events';
      if (cur.shape.records) this.events.sink = cur.shape.records;
    }
  }

  private dumpRecordLine(cur: ReplyInProgress, emit: Emit): void {
    const { bytes, lineStart, lineEnd } = this.lines;
    const sink = cur.shape.kind === 'dump-events' ? cur.shape.records : undefined;
    if (cur.record === null) {
      if (!this.lines.lineIs(RECORD_HEADER_BYTES)) {
        throw new ProtocolError('expected an event record in "dump events reply"', JSON.stringify(clip(this.lines.line())));
      }
      cur.record = [];
      cur.recordLines = 0;
      sink?.begin();
      return;
    }
    if (lineEnd === lineStart) {
      // The sink keeps what it made of the record (and any error in it) for the reply's parser.
      if (sink) sink.end();
      else cur.records.push(cur.record);
      cur.record = null;
      if (--cur.recordsLeft === 0) this.completeReply(cur, null, emit);
      return;
    }
    const sep = recordSeparator(bytes, lineStart, lineEnd);
    if (sep < 0) throw new ProtocolError('malformed event record line', JSON.stringify(clip(this.lines.line())));
    if (cur.recordLines >= this.limits.maxRecordLines) throw new ProtocolError('event record too long');
    cur.recordLines++;
    const keyStart = blankSkip(bytes, lineStart, sep);
    const keyEnd = blankTrim(bytes, keyStart, sep);
    const valueStart = blankSkip(bytes, sep + 1, lineEnd);
    const valueEnd = blankTrim(bytes, valueStart, lineEnd);
    if (sink) sink.field(bytes, keyStart, keyEnd, valueStart, valueEnd);
    else cur.record.push([text(bytes, keyStart, keyEnd), text(bytes, valueStart, valueEnd)]);
  }

  private takeBody(cur: ReplyInProgress, emit: Emit): boolean {
    const bytes = this.lines.takeBytes(cur.bodyBytes + 1);
    if (bytes === null) {
      if (this.lines.buffered > this.limits.maxReplyBytes) throw new ProtocolError('reply too large');
      return false;
    }
    if (!bytes.endsWith('\n')) {
      throw new ProtocolError('config body not followed by a line feed', `Content-Length ${cur.bodyBytes}`);
    }
    this.completeReply(cur, bytes.slice(0, cur.bodyBytes), emit);
    return true;
  }

  private completeReply(cur: ReplyInProgress, body: string | null, emit: Emit): void {
    this.complete(
      { type: 'reply', reply: { kind: 'reply', header: cur.header, pairs: cur.pairs, records: cur.records, body } },
      emit,
    );
  }

  private complete(frame: Frame, emit: Emit): void {
    this.cur = null;
    emit(frame);
  }

}

const HEADERS = {
  'dump-events': 'dump events reply',
  config: 'get config reply',
  listen: 'listen event',
  resync: 'check connection reply',
} as const;

function valueOf(pairs: Pairs, key: string): string | undefined {
  return pairs.find(([k]) => k === key)?.[1];
}

function strictCount(value: string | undefined, key: string, max: number): number {
  if (value === undefined || !/^\d+$/.test(value)) {
    throw new ProtocolError(`missing or bad "${key}"`, JSON.stringify(value ?? null));
  }
  const n = Number(value);
  if (n > max) throw new ProtocolError(`"${key}" too large`, `${n} > ${max}`);
  return n;
}
