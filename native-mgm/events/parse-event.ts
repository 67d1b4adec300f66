import { ProtocolError } from '../errors.js';
import { feedPairs, type Frame, type Pairs, type RecordSink } from '../protocol/frames.js';
import { ascii, decimalToLf, text, LF, rangeIs, viewOf, Word } from '../protocol/kv.js';
import { parseDecimalAt, parseIntStrict } from '../protocol/messages/reply-fields.js';
import type { ClusterEvent } from '../types.js';
import { EVENT_TYPES, type EventTypeSpec } from './catalogue.js';

const INTEGER = /^-?\d+$/;
/** The keys every record starts with (§6.3); `time` is always 0 on the wire, required as mgmapi requires it. */
const HEADER_KEYS = ['type', 'time', 'source_nodeid'] as const;
const HEADER_BYTES = HEADER_KEYS.map(ascii);
/** For the fast path: the start of each header line as the server prints it, key and `=`. */
const HEADER_LINES = HEADER_KEYS.map((k) => new Word(`${k}=`));

/** What a record of a type with a field table is read with. */
interface FieldTable {
  spec: EventTypeSpec;
  /** Field names as bytes, for `field`. */
  names: readonly Uint8Array[];
  /**
   * Each field line's start (name and `=`) for the fast path; null for SingleUser, whose field `type` `field`
   * reads as a repeated header line, so its records go the slow way and fail the same.
   */
  lines: readonly Word[] | null;
}

/** By type id (a small number), so a record costs an array load, not a Map lookup. */
const TABLES: Array<FieldTable | undefined> = [];
for (const [id, spec] of EVENT_TYPES) {
  if (spec.fields === null) continue;
  const clash = spec.fields.some((f) => (HEADER_KEYS as readonly string[]).includes(f.name));
  TABLES[id] = { spec, names: spec.fields.map((f) => ascii(f.name)), lines: clash ? null : spec.fields.map((f) => new Word(`${f.name}=`)) };
}
const tableOf = (typeId: number): FieldTable | undefined => (typeId >= 0 && typeId < TABLES.length ? TABLES[typeId] : undefined);

/** `raw` of the many events with nothing beyond their catalogue fields: shared, so frozen. */
const NO_RAW: Record<string, string> = Object.freeze({});
const TYPE = 0;
const SOURCE = 2;
const MOST_FIELDS = Math.max(...[...EVENT_TYPES.values()].map((s) => s.fields?.length ?? 0));

/**
 * One §6.3 record → a typed event, built line by line where the lines lie in the reader's buffer: the type
 * comes first on the wire, so each field after it is matched to the catalogue and parsed as a number in place,
 * and no string is cut for it. Fields print as signed %d of unsigned words, so they are turned back into
 * unsigned numbers except where the catalogue says a field is truly signed (MemoryUsage gth). A type this
 * version does not know is kept as a generic event, never an error (spec §6.3, pitfall 22).
 *
 * At 144 data nodes × several instances this runs thousands of times a second; one parser serves a whole
 * stream, so a record allocates its event, its fields object and nothing else.
 */
export class EventRecordParser implements RecordSink {
  private readonly header = [NaN, NaN, NaN];
  /** Which header keys were seen, and the text of any that is not a number (for its error). */
  private readonly headerSeen = [false, false, false];
  private readonly headerText: Array<string | undefined> = [undefined, undefined, undefined];
  /** The catalogue entry with a field table, once `type` named one; its fields are then parsed in place. */
  private spec: EventTypeSpec | undefined = undefined;
  private names: readonly Uint8Array[] | null = null;
  private readonly values = new Float64Array(MOST_FIELDS);
  private readonly valueSeen = new Uint8Array(MOST_FIELDS);
  private readonly valueText: Array<string | undefined> = [];
  private next = 0;
  private repeated: string | null = null;
  /** Lines not parsed in place: keys outside the catalogue, `data=`, or every field of an unknown type. */
  private raw: Record<string, string> | null = null;
  private readonly number = { n: 0 };

  constructor(private readonly clock: () => number) {}

  begin(): void {
    this.headerSeen.fill(false);
    this.spec = undefined;
    this.names = null;
    this.repeated = null;
    this.next = 0;
    this.raw = null;
  }

  field(b: Buffer, ks: number, ke: number, vs: number, ve: number): boolean {
    const h = headerIndex(b, ks, ke);
    if (h >= 0 && !this.isBodyField(h)) {
      this.headerLine(h, b, vs, ve);
      return true;
    }
    const f = this.names === null ? -1 : nameIndex(this.names, b, ks, ke, this.next);
    if (f < 0) {
      (this.raw ??= {})[text(b, ks, ke)] = text(b, vs, ve);
      return true;
    }
    const n = parseDecimalAt(b, vs, ve);
    this.fieldValue(f, n, n === null ? text(b, vs, ve) : undefined);
    return true;
  }

  /**
   * The fast path (RecordSink.record): a record exactly as the server prints it, header keys then the type's
   * fields in the catalogue's order, every value a number, each line read in one pass. Anything else (`data=`, an
   * unknown type, a key out of order, blanks, CR, a line not complete yet) returns -1 for the slow way.
   */
  record(b: Buffer, start: number, end: number, maxLine: number, maxLines: number): number {
    const view = viewOf(b);
    let p = start;
    for (let h = 0; h < HEADER_LINES.length; h++) {
      const lf = this.keyedNumber(b, view, p, end, maxLine, HEADER_LINES[h] as Word);
      if (lf < 0) return -1;
      this.header[h] = this.number.n;
      this.headerText[h] = undefined;
      this.headerSeen[h] = true;
      p = lf + 1;
    }
    const keys = this.useType(this.header[TYPE] as number)?.lines;
    if (!keys) return -1;
    for (let f = 0; ; f++) {
      if (p < end && b[p] === LF) return p + 1;
      if (f >= keys.length || HEADER_LINES.length + f >= maxLines) return -1;
      const lf = this.keyedNumber(b, view, p, end, maxLine, keys[f] as Word);
      if (lf < 0) return -1;
      this.fieldValue(f, this.number.n, undefined);
      p = lf + 1;
    }
  }

  /** `<key>=<number>\n` at `start`: the LF's index with the number in `this.number`, else -1. */
  private keyedNumber(b: Buffer, view: DataView, start: number, end: number, maxLine: number, key: Word): number {
    if (!key.at(view, start, end)) return -1;
    return decimalToLf(b, start + key.length, Math.min(end, start + maxLine + 1), this.number);
  }

  private fieldValue(f: number, n: number | null, text: string | undefined): void {
    this.next = f + 1;
    this.values[f] = n ?? NaN;
    this.valueText[f] = text;
    this.valueSeen[f] = 1;
  }

  /**
   * SingleUser (52) has a field named `type` (spec §6.6): once the three header lines are in, a header key the
   * type's own table names is that field, not a second header.
   */
  private isBodyField(h: number): boolean {
    if (!this.headerSeen[TYPE] || !this.headerSeen[1] || !this.headerSeen[SOURCE] || this.spec === undefined) return false;
    const key = HEADER_KEYS[h] as string;
    return this.spec.fields?.some((f) => f.name === key) ?? false;
  }

  private headerLine(h: number, b: Buffer, vs: number, ve: number): void {
    if (this.headerSeen[h]) {
      // Fields may already be matched to the first type's table; a record naming two is not one record.
      this.repeated ??= HEADER_KEYS[h] as string;
      return;
    }
    const n = parseDecimalAt(b, vs, ve);
    this.header[h] = n ?? NaN;
    this.headerText[h] = n === null ? text(b, vs, ve) : undefined;
    this.headerSeen[h] = true;
    if (h === TYPE && n !== null) this.useType(n);
  }

  /** Once `type` is known: a type with a field table has its fields matched and parsed in place from then on. */
  private useType(typeId: number): FieldTable | undefined {
    const table = tableOf(typeId);
    if (table !== undefined) {
      this.spec = table.spec;
      this.names = table.names;
      this.valueSeen.fill(0);
    }
    return table;
  }

  end(): Frame {
    return { type: 'event', event: this.build(this.clock()) };
  }

  /** The finished record; throws a ProtocolError naming what is missing or malformed. */
  build(receivedAt: number): ClusterEvent {
    if (this.repeated !== null) throw new ProtocolError(`event record repeats "${this.repeated}"`);
    const typeId = this.required(TYPE);
    this.required(1);
    const sourceNodeId = this.required(SOURCE);
    const spec = tableOf(typeId)?.spec ?? EVENT_TYPES.get(typeId);
    const raw = this.raw ?? NO_RAW;
    if (spec === undefined) {
      return { typeId, name: `Unknown${typeId}`, category: null, severity: null, sourceNodeId, receivedAt, fields: unknownFields(raw), data: unknownData(raw, typeId), known: false, raw };
    }
    const fields = spec.fields === null ? {} : this.knownFields(spec);
    const data = spec.fields === null ? parseDataWords(raw.data ?? '', typeId) : null;
    return { typeId, name: spec.name, category: spec.category, severity: spec.severity, sourceNodeId, receivedAt, fields, data, known: true, raw };
  }

  private required(h: number): number {
    const key = HEADER_KEYS[h] as string;
    if (!this.headerSeen[h]) throw new ProtocolError(`event record lacks "${key}"`);
    const n = this.header[h] as number;
    return Number.isNaN(n) ? parseIntStrict(this.headerText[h] ?? '', `event ${key}`) : n;
  }

  private knownFields(spec: EventTypeSpec): Record<string, number> {
    const fields: Record<string, number> = {};
    const list = spec.fields ?? [];
    const inPlace = this.spec === spec;
    for (let i = 0; i < list.length; i++) {
      const f = list[i] as (typeof list)[number];
      let n: number;
      if (inPlace && this.valueSeen[i] === 1) {
        const v = this.values[i] as number;
        n = Number.isNaN(v) ? parseIntStrict(this.valueText[i] ?? '', `${spec.name}.${f.name}`) : v;
      } else {
        // Arrived before `type` (no server does that), so kept as text.
        const v = this.raw?.[f.name];
        if (v === undefined) throw new ProtocolError(`${spec.name} event lacks field "${f.name}"`);
        n = parseIntStrict(v, `${spec.name}.${f.name}`);
        delete this.raw?.[f.name];
      }
      fields[f.name] = f.signed ? n | 0 : n >>> 0;
    }
    return fields;
  }
}

/**
 * A record already framed into pairs (the `dump events` reply; the event stream types its records with an
 * EventRecordParser as they arrive). `raw` holds the keys the catalogue does not name, all of them for an
 * unknown type.
 */
export function parseEventRecord(pairs: Pairs, receivedAt: number): ClusterEvent {
  const parser = new EventRecordParser(() => receivedAt);
  parser.begin();
  feedPairs(parser, pairs);
  return parser.build(receivedAt);
}

function headerIndex(b: Uint8Array, start: number, end: number): number {
  for (let h = 0; h < HEADER_BYTES.length; h++) if (rangeIs(b, start, end, HEADER_BYTES[h] as Uint8Array)) return h;
  return -1;
}

/** Index of the key among the type's field names, trying `guess` first since records keep the table's order. */
function nameIndex(names: readonly Uint8Array[], b: Uint8Array, start: number, end: number, guess: number): number {
  if (guess < names.length && rangeIs(b, start, end, names[guess] as Uint8Array)) return guess;
  for (let i = 0; i < names.length; i++) if (rangeIs(b, start, end, names[i] as Uint8Array)) return i;
  return -1;
}

function unknownFields(raw: Record<string, string>): Record<string, number> {
  const fields: Record<string, number> = {};
  for (const k in raw) {
    const v = raw[k] as string;
    if (INTEGER.test(v)) fields[k] = Number(v);
  }
  return fields;
}

function unknownData(raw: Record<string, string>, typeId: number): number[] | null {
  const d = raw.data;
  return d !== undefined && !INTEGER.test(d) ? parseDataWords(d, typeId) : null;
}

/** `data=` holds each body word followed by one space (so a trailing space), or nothing at all. */
function parseDataWords(text: string, typeId: number): number[] {
  const words = text.split(' ').filter((w) => w !== '');
  return words.map((w) => parseIntStrict(w, `data word of event type ${typeId}`) >>> 0);
}
