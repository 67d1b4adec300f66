import { eventTypeByName } from '../../events/catalogue.js';

/**
 * An event as a data node or mgmd reports it: type, source node and the raw body words (index 0 here is body
 * word 1, since word 0 is the type/source header). `mgmd` restricts it to one management server's listeners
 * (Connected/Disconnected describe that server's own links).
 */
export interface SimEvent {
  type: number;
  source: number;
  body: number[];
  mgmd?: number;
}

/**
 * Builds an event from named fields, placing each value at the body word the catalogue gives for that field,
 * so the simulator never spells a word index itself.
 */
export function makeEvent(
  name: string,
  source: number,
  fields: Readonly<Record<string, number>> = {},
  mgmd?: number,
): SimEvent {
  const spec = eventTypeByName(name);
  const body: number[] = [];
  if (spec.fields === null) throw new Error(`event ${name} has no field table; use makeRawEvent`);
  for (const [field, value] of Object.entries(fields)) {
    const f = spec.fields.find((x) => x.name === field);
    if (!f) throw new Error(`event ${name} has no field ${field}`);
    while (body.length < f.word) body.push(0);
    body[f.word - 1] = value >>> 0;
  }
  return mgmd === undefined ? { type: spec.id, source, body } : { type: spec.id, source, body, mgmd };
}

/** For `data=` events: the raw body words. */
export function makeRawEvent(name: string, source: number, words: readonly number[]): SimEvent {
  return { type: eventTypeByName(name).id, source, body: words.map((w) => w >>> 0) };
}

/** Splits a 64-bit count into the hi/lo words the backup events carry. */
export function split64(value: number): { hi: number; lo: number } {
  return { hi: Math.floor(value / 2 ** 32), lo: value % 2 ** 32 };
}
