import { ProtocolError } from '../errors.js';
import type { Pairs } from '../protocol/frames.js';
import { parseIntStrict } from '../protocol/messages/reply-fields.js';
import type { ClusterEvent } from '../types.js';
import { EVENT_TYPES, type EventTypeSpec } from './catalogue.js';

const INTEGER = /^-?\d+$/;

/**
 * One §6.3 record → a typed event. Fields print as signed %d of unsigned words, so they are turned back into
 * unsigned numbers except where the catalogue says a field is truly signed (MemoryUsage gth). A type this
 * version does not know is kept as a generic event, never an error (spec §6.3, pitfall 22).
 *
 * Written as one pass with a fixed result shape: at 144 data nodes × several instances this runs thousands of
 * times a second, and object spreads of record-sized dictionaries made it ten times slower.
 */
export function parseEventRecord(pairs: Pairs, receivedAt: number): ClusterEvent {
  let type: string | undefined;
  let time: string | undefined;
  let source: string | undefined;
  const raw: Record<string, string> = {};
  for (const [k, v] of pairs) {
    if (k === 'type') type = v;
    else if (k === 'time') time = v;
    else if (k === 'source_nodeid') source = v;
    else raw[k] = v;
  }
  const typeId = required(type, 'type');
  required(time, 'time'); // always 0 on the wire; required as mgmapi requires it, then ignored
  const sourceNodeId = required(source, 'source_nodeid');
  const spec = EVENT_TYPES.get(typeId);
  const known = spec !== undefined;
  return {
    typeId,
    name: known ? spec.name : `Unknown${typeId}`,
    category: known ? spec.category : null,
    severity: known ? spec.severity : null,
    sourceNodeId,
    receivedAt,
    fields: known ? knownFields(spec, raw) : unknownFields(raw),
    data: known ? (spec.fields === null ? parseDataWords(raw.data ?? '', typeId) : null) : unknownData(raw, typeId),
    known,
    raw,
  };
}

function required(value: string | undefined, key: string): number {
  if (value === undefined) throw new ProtocolError(`event record lacks "${key}"`);
  return parseIntStrict(value, `event ${key}`);
}

function knownFields(spec: EventTypeSpec, raw: Record<string, string>): Record<string, number> {
  const fields: Record<string, number> = {};
  if (spec.fields === null) return fields;
  for (const f of spec.fields) {
    const v = raw[f.name];
    if (v === undefined) throw new ProtocolError(`${spec.name} event lacks field "${f.name}"`);
    const n = parseIntStrict(v, `${spec.name}.${f.name}`);
    fields[f.name] = f.signed ? n | 0 : n >>> 0;
  }
  return fields;
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
