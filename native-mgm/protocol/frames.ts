import type { ProtocolError } from '../errors.js';
import type { ClusterEvent } from '../types.js';

/** Key/value lines in the order received; a reply may legitimately repeat keys in free-form sections. */
export type Pairs = ReadonlyArray<readonly [string, string]>;

/**
 * Takes one `key: value` (or record `key=value`) line as byte ranges where it lies in the reader's buffer,
 * before any string is cut from it: a 255-node `get status` has 2,500 such lines per poll and an event stream
 * thousands a second. The ranges are valid only during the call.
 */
export interface FieldSink {
  /** True when the sink took the line; otherwise the reader keeps it in the reply's `pairs`. */
  field(bytes: Buffer, keyStart: number, keyEnd: number, valueStart: number, valueEnd: number): boolean;
  /**
   * Fast path, optional: reads whole lines of `bytes[start, end)` in place, framing and parsing in one pass, and
   * returns where it stopped (just past the LF of the last line it took; `start` for none). It takes only lines
   * that `field` would read the same way: each ends in LF (no CR) within `maxLine` bytes, has no blanks to trim,
   * and is one the sink recognises. It stops, untouched, at anything else (the empty line that ends the reply,
   * `nodes: N`, a malformed or unusual line), which the reader then frames and passes to `field` as before.
   */
  lines?(bytes: Buffer, start: number, end: number, maxLine: number): number;
}

/** Feeds pairs already framed to a sink, as the reader would have (parsers of framed replies share the sinks' code). */
export function feedPairs(sink: FieldSink, pairs: Pairs): void {
  for (const [k, v] of pairs) {
    // Both came from UTF-8 decoding, so they encode back to the bytes they came from (valid UTF-8 ones, at least).
    const bytes = Buffer.from(`${k}:${v}`, 'utf8');
    const keyEnd = Buffer.byteLength(k);
    sink.field(bytes, 0, keyEnd, keyEnd + 1, bytes.length);
  }
}

/** Turns the lines of each event record into one frame as they arrive (the reader keeps no pairs then). */
export interface RecordSink extends FieldSink {
  begin(): void;
  /**
   * Fast path, optional: after `begin()`, reads the lines of one record (those after its `log event reply`
   * header, up to and including the empty line that ends it) from `bytes[start, end)` in place. Returns where the
   * record ended, ready for `end()`; or -1, having taken nothing that `begin()` does not reset, when the record is
   * incomplete here or not exactly as the server prints it (no CR, no blanks, fields in the catalogue's order,
   * each line within `maxLine` bytes, at most `maxLines` field lines): the reader then reads it line by line.
   */
  record?(bytes: Buffer, start: number, end: number, maxLine: number, maxLines: number): number;
  /** Throws a ProtocolError for a record that is framed well but malformed; the reader reports it and goes on. */
  end(): Frame;
}

/** What the client expects back for the request it just sent; framing depends on it (spec §1.3–1.5). */
export type ReplyShape =
  /** Header line, `key: value` lines, empty line. `sink` may take lines as they stream instead of `pairs`. */
  | { kind: 'kv'; header: string; sink?: FieldSink }
  /** `end session reply`: a single line with no empty line after it (§4.20). */
  | { kind: 'line'; header: string }
  /**
   * `dump events reply` header, then `events: N` records of the §6.3 format (§4.10). `records`, when given, takes
   * each record's lines where they lie (as the event stream's do) instead of the reply's `records`.
   */
  | { kind: 'dump-events'; records?: RecordSink }
  /** `get config reply` header, then exactly Content-Length bytes and one LF (§4.18). */
  | { kind: 'config' }
  /** `listen event`: on `result: 0` every following byte belongs to the event stream (§6.2), its records to `records`. */
  | { kind: 'listen'; records?: RecordSink }
  /**
   * After a parser error on a request with arguments the server answers each leftover argument line as a
   * command of its own (§1.4, pitfall 3), and how many there are depends on where the error struck. The
   * client then sends `check connection`; this shape swallows parser-error replies until that reply arrives.
   */
  | { kind: 'resync' };

export type Reply =
  | { kind: 'reply'; header: string; pairs: Pairs; records: Pairs[]; body: string | null }
  /** The server's request parser refused the request; such replies have no header (§1.4, pitfall 1). */
  | { kind: 'parser-error'; message: string }
  | { kind: 'auth-failed'; message: string }
  /**
   * A reply that begins with neither the expected header, `result: ` nor `Authorization failed`, read to its empty
   * line: a server that answers with words of its own while it starts (one waiting for arbitrator selection, say;
   * the spec gives no such text). The session goes on; the request fails with those words.
   */
  | { kind: 'unexpected'; expected: string; lines: string[] };

export type Frame =
  | { type: 'reply'; reply: Reply }
  | { type: 'record'; pairs: Pairs }
  /** A record already typed by the listen shape's RecordSink. */
  | { type: 'event'; event: ClusterEvent }
  | { type: 'ping' }
  /** A line outside any record on the event stream; mgmapi skips these too, we pass them on for diagnostics. */
  | { type: 'stray-line'; line: string }
  /** fatal: the byte stream can no longer be trusted and the connection must be dropped. */
  | { type: 'error'; error: ProtocolError; fatal: boolean };

export interface ReaderLimits {
  maxLineBytes: number;
  maxReplyBytes: number;
  maxRecordLines: number;
  maxDumpRecords: number;
}

/**
 * Generous next to what a real server sends (a 255-node `get status` is ~55 KB, its longest line < 100 bytes,
 * a config body a few hundred KB) and small enough that a hostile peer cannot grow our memory without bound.
 */
export const DEFAULT_LIMITS: ReaderLimits = {
  maxLineBytes: 16 * 1024,
  maxReplyBytes: 8 * 1024 * 1024,
  maxRecordLines: 128,
  maxDumpRecords: 4 * 1024,
};
