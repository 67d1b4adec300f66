import { ProtocolError } from '../errors.js';
import { feedPairs, type Frame, type Pairs, type RecordSink } from '../protocol/frames.js';
import { ascii, latin1, rangeIs } from '../protocol/kv.js';
import { parseDecimalAt, parseIntStrict } from '../protocol/messages/reply-fields.js';
import type { ClusterEvent } from '../types.js';
import { EVENT_TYPES, type EventTypeSpec } from './catalogue.js';

const INTEGER = /^-?\d+$/;
/** The keys every record starts with (§6.3); `time` is always 0 on the wire, required as mgmapi requires it. */
const HEADER_KEYS = ['type', 'time', 'source_nodeid'] as const;
const HEADER_BYTES = HEADER_KEYS.map(ascii);
/** Each catalogue entry's field names as bytes, by type id. */
const FIELD_BYTES = new Map([...EVENT_TYPES].map(([id, spec]) => [id, (spec.fields ?? []).map((f) => ascii(f.name))]));
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
  private raw: Record<string, string> = {};

  constructor(private readonly clock: () => number) {}

  begin(): void {
    this.headerSeen.fill(false);
    this.spec = undefined;
    this.names = null;
    this.repeated = null;
    this.next = 0;
    this.raw = {};
  }

  field(b: Buffer, ks: number, ke: number, vs: number, ve: number): boolean {
    const h = headerIndex(b, ks, ke);
    if (h >= 0) {
      this.headerLine(h, b, vs, ve);
      return true;
    }
    const f = this.names === null ? -1 : nameIndex(this.names, b, ks, ke, this.next);
    if (f < 0) {
      this.raw[latin1(b, ks, ke)] = latin1(b, vs, ve);
      return true;
    }
    this.next = f + 1;
    const n = parseDecimalAt(b, vs, ve);
    this.values[f] = n ?? NaN;
    this.valueText[f] = n === null ? latin1(b, vs, ve) : undefined;
    this.valueSeen[f] = 1;
    return true;
  }

  private headerLine(h: number, b: Buffer, vs: number, ve: number): void {
    if (this.headerSeen[h]) {
      // Fields may already be matched to the first type's table; a record naming two is not one record.
      this.repeated ??= HEADER_KEYS[h] as string;
      return;
    }
    const n = parseDecimalAt(b, vs, ve);
    this.header[h] = n ?? NaN;
    this.headerText[h] = n === null ? latin1(b, vs, ve) : undefined;
    this.headerSeen[h] = true;
    if (h === TYPE && n !== null) {
      const spec = EVENT_TYPES.get(n);
      if (spec?.fields) {
        this.spec = spec;
        this.names = FIELD_BYTES.get(n) ?? null;
        this.valueSeen.fill(0);
      }
    }
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
    const spec = EVENT_TYPES.get(typeId);
    const raw = this.raw;
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
        const v = this.raw[f.name];
        if (v === undefined) throw new ProtocolError(`${spec.name} event lacks field "${f.name}"`);
        n = parseIntStrict(v, `${spec.name}.${f.name}`);
        delete this.raw[f.name];
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
