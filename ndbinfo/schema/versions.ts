import { NDBINFO_TABLES, type TableDef } from './tables.js';

// Which NDB release's ndbinfo first has a table or column, where ../shared/ndbinfo/ndbinfo-reference.md dates it.
// Everything else the reference lists without a release: it is taken to exist in every version ndbtop knows
// (7.6 to 9.x), which the reference neither confirms nor denies.

/** A release as major, minor and build; compared as NDB packs it (spec §5.5). */
export interface NdbRelease {
  readonly major: number;
  readonly minor: number;
  readonly build: number;
}

const release = (major: number, minor: number, build: number): NdbRelease => ({ major, minor, build });
const packed = (r: NdbRelease): number => (r.major << 16) | (r.minor << 8) | r.build;

export const releaseText = (r: NdbRelease): string => `${r.major}.${r.minor}.${r.build}`;

/** Whether `r` is `since` or later. */
export const atLeast = (r: NdbRelease, since: NdbRelease): boolean => packed(r) >= packed(since);

/** The reference: `cpudata`, `cpudata_1sec`, … "(8.0.23+)", host CPUs, Linux only. */
const CPUDATA_SINCE = release(8, 0, 23);
/** The reference: `transporter_details` "(8.3+)"; its send-buffer columns came with it. */
const TRANSPORTER_DETAILS_SINCE = release(8, 3, 0);

/** Tables newer than the oldest release ndbtop knows, with the release that brought them and what else to know. */
export const TABLE_SINCE: Readonly<Record<string, { since: NdbRelease; note?: string }>> = {
  cpudata: { since: CPUDATA_SINCE, note: 'Linux only' },
  cpudata_1sec: { since: CPUDATA_SINCE, note: 'Linux only' },
  cpudata_20sec: { since: CPUDATA_SINCE, note: 'Linux only' },
  transporter_details: { since: TRANSPORTER_DETAILS_SINCE },
};

/**
 * Columns newer than their table, as `table.column`. `transporters.encrypted` came with 8.3's TLS between nodes
 * (the 8.4 manual's transporters page lists it last; the reference names it in the base table only).
 */
export const COLUMN_SINCE: Readonly<Record<string, NdbRelease>> = {
  'transporters.encrypted': release(8, 3, 0),
};

/** The release of a `table` or `table.column` where the reference dates it; null where it does not. */
export function sinceOf(name: string): { since: NdbRelease; note?: string } | null {
  const table = TABLE_SINCE[name];
  if (table) return table;
  const column = COLUMN_SINCE[name];
  if (column) return { since: column };
  const [tableName] = name.split('.');
  return tableName !== undefined && tableName !== name ? (TABLE_SINCE[tableName] ?? null) : null;
}

/** The tables (and their columns) an SQL node of release `r` has: what the simulator's SQL node serves. */
export function tablesAt(r: NdbRelease): TableDef[] {
  return NDBINFO_TABLES.filter((t) => !TABLE_SINCE[t.name] || atLeast(r, TABLE_SINCE[t.name]!.since)).map((t) => ({
    name: t.name,
    columns: t.columns.filter((c) => {
      const since = COLUMN_SINCE[`${t.name}.${c.name}`];
      return !since || atLeast(r, since);
    }),
  }));
}

/**
 * The NDB release of an SQL node from its server version (the handshake's, `SELECT VERSION()`): 7.x builds say
 * `5.7.44-ndb-7.6.29` (MySQL and NDB numbers differ before 8.0, spec §4.1), 8.x and later are numbered as NDB is
 * (`8.4.3-cluster`). Null when neither form is there: a server whose NDB release cannot be told.
 */
export function ndbReleaseOf(serverVersion: string): NdbRelease | null {
  const ndb = /ndb-(\d+)\.(\d+)\.(\d+)/i.exec(serverVersion);
  if (ndb) return release(Number(ndb[1]), Number(ndb[2]), Number(ndb[3]));
  const plain = /^(\d+)\.(\d+)\.(\d+)-cluster/i.exec(serverVersion);
  if (plain && Number(plain[1]) >= 8) return release(Number(plain[1]), Number(plain[2]), Number(plain[3]));
  return null;
}
