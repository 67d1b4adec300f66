import { ProtocolError } from '../errors.js';
import type { Pairs } from '../protocol/frames.js';
import { parseIntStrict } from '../protocol/messages/reply-fields.js';
import type { ClusterEvent } from '../types.js';
import { EVENT_TYPES } from './catalogue.js';

const HEADER_KEYS = new Set(['type', 'time', 'source_nodeid']);

/**
 * One §6.3 record → a typed event. Fields print as signed %d of unsigned words, so they are turned back into
 * unsigned numbers except where the catalogue says a field is truly signed (MemoryUsage gth). A type this
 * version does not know is kept as a generic event, never an error (spec §6.3, pitfall 22).
 */
export function parseEventRecord(pairs: Pairs, receivedAt: number): ClusterEvent {
  const raw = new Map<string, string>();
  for (const [k, v] of pairs) raw.set(k, v);
  const header = (key: string): number => {
    const v = raw.get(key);
    if (v === undefined) throw new ProtocolError(`event record lacks "${key}"`);
    return parseIntStrict(v, `event ${key}`);
  };
  const typeId = header('type');
  header('time'); // always 0 on the wire; required like mgmapi does, then ignored
  const sourceNodeId = header('source_nodeid');

  const body: Record<string, string> = {};
  for (const [k, v] of raw) if (!HEADER_KEYS.has(k)) body[k] = v;

  const spec = EVENT_TYPES.get(typeId);
  const base = { typeId, sourceNodeId, receivedAt, raw: body };
  if (spec === undefined) {
    const fields: Record<string, number> = {};
    for (const [k, v] of Object.entries(body)) if (/^-?\d+$/.test(v)) fields[k] = Number(v);
    const data = body.data !== undefined && !(/^-?\d+$/.test(body.data)) ? parseDataWords(body.data, typeId) : null;
    return { ...base, name: `Unknown${typeId}`, category: null, severity: null, fields, data, known: false };
  }

  const common = { ...base, name: spec.name, category: spec.category, severity: spec.severity, known: true };
  if (spec.fields === null) {
    return { ...common, fields: {}, data: parseDataWords(body.data ?? '', typeId) };
  }
  const fields: Record<string, number> = {};
  for (const f of spec.fields) {
    const v = body[f.name];
    if (v === undefined) throw new ProtocolError(`${spec.name} event lacks field "${f.name}"`);
    const n = parseIntStrict(v, `${spec.name}.${f.name}`);
    fields[f.name] = f.signed ? n | 0 : n >>> 0;
  }
  return { ...common, fields, data: null };
}

/** `data=` holds each body word followed by one space (so a trailing space), or nothing at all. */
function parseDataWords(text: string, typeId: number): number[] {
  const words = text.split(' ').filter((w) => w !== '');
  return words.map((w) => parseIntStrict(w, `data word of event type ${typeId}`) >>> 0);
}
