import { EVENT_TYPES } from '../../events/catalogue.js';
import type { SimEvent } from '../state/sim-event.js';

/**
 * One event in the parsable format (spec §6.3): `time=0`, fields as signed %d of their body word (missing words
 * read as 0), or `data=` with every body word unsigned and followed by one space.
 */
export function formatEventRecord(event: SimEvent): string {
  let out = `log event reply\ntype=${event.type}\ntime=0\nsource_nodeid=${event.source}\n`;
  const fields = EVENT_TYPES.get(event.type)?.fields ?? null;
  if (fields === null) {
    out += `data=${event.body.map((w) => `${w >>> 0} `).join('')}\n`;
  } else {
    for (const f of fields) out += `${f.name}=${(event.body[f.word - 1] ?? 0) | 0}\n`;
  }
  return `${out}\n`;
}

/** The human format (`parsable: 0`, spec §6.4). The real server prints its cluster-log sentence; the simulator
 * prints the event name and fields, which is enough for a client that must not rely on this format anyway. */
export function formatEventText(event: SimEvent): string {
  const spec = EVENT_TYPES.get(event.type);
  const name = spec?.name ?? `Event type ${event.type}`;
  const detail =
    spec?.fields == null
      ? event.body.map((w) => w >>> 0).join(' ')
      : spec.fields.map((f) => `${f.name}=${(event.body[f.word - 1] ?? 0) | 0}`).join(' ');
  return `Node ${event.source}: ${name}${detail === '' ? '' : ` ${detail}`}\n`;
}
