import assert from 'node:assert/strict';
import type { RawConnection } from './raw-socket.js';

const RECORD = /^log event reply\n(?:[a-z_0-9]+=[^\n]*\n)+\n/;

export async function listen(conn: RawConnection, filter: string): Promise<void> {
  assert.equal(await conn.request(`listen event\nfilter: ${filter}\nparsable: 1\n\n`), 'listen event\nresult: 0\n\n');
}

/** The next record's bytes on an event stream, skipping PINGs. */
export function nextRecord(conn: RawConnection, timeoutMs?: number): Promise<string> {
  return conn
    .read((b) => {
      const skip = /^(?:<PING>\n)*/.exec(b)?.[0].length ?? 0;
      const record = RECORD.exec(b.slice(skip));
      return record ? skip + record[0].length : null;
    }, timeoutMs)
    .then((text) => text.replace(/^(?:<PING>\n)*/, ''));
}

export interface Rec {
  type: number;
  source: number;
  fields: Record<string, string>;
}

/**
 * Test-side reading of one record (written here, independent of the client's parser). The header lines
 * type/time/source_nodeid come first; `fields` holds the rest, since a field may itself be named `type`.
 */
export function parseRecord(text: string): Rec {
  const lines = text.split('\n');
  const value = (line: string | undefined): string => line?.slice(line.indexOf('=') + 1) ?? '';
  const fields: Record<string, string> = {};
  for (const line of lines.slice(4)) {
    const i = line.indexOf('=');
    if (i > 0) fields[line.slice(0, i)] = line.slice(i + 1);
  }
  return { type: Number(value(lines[1])), source: Number(value(lines[3])), fields };
}

/** Reads records until `done` says the collection is complete; returns all of them in arrival order. */
export async function collect(conn: RawConnection, done: (records: readonly Rec[]) => boolean, timeoutMs = 20_000): Promise<Rec[]> {
  const deadline = Date.now() + timeoutMs;
  const records: Rec[] = [];
  while (!done(records)) {
    records.push(parseRecord(await nextRecord(conn, Math.max(1, deadline - Date.now()))));
  }
  return records;
}

/** Index of the first record matching, or -1. */
export function indexOf(records: readonly Rec[], type: number, source?: number, field?: [string, string]): number {
  return records.findIndex((r) => r.type === type && (source === undefined || r.source === source) && (field === undefined || r.fields[field[0]] === field[1]));
}
