import type { ColumnDef, TableDef } from '../schema/tables.js';
import { MalformedRowError, scrub, type Secrets } from './errors.js';

export type RowValue = number | string;

/** Column names are the schema's few hundred, and every cell of every reading asks (a regex replace each was most of the source's CPU). */
const FIELD_NAMES = new Map<string, string>();

/** `node_restart_status_int` → `nodeRestartStatusInt`, `OS_user` → `osUser`: the typed rows' field names. */
export function fieldName(column: string): string {
  let name = FIELD_NAMES.get(column);
  if (name === undefined) FIELD_NAMES.set(column, (name = column.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())));
  return name;
}

const DECIMAL = /^\d+(?:\.\d+)?$/;

/**
 * A number column as the server sent it, in text (the connection asks mysql2 for the bytes, not its reading of
 * them): INT, BIGINT and DECIMAL (what the views' SUM() makes of a number) alike. Accepted only when it is wholly an
 * unsigned decimal number (every ndbinfo number column is unsigned) that a double holds exactly enough.
 */
function readNumber(table: string, column: string, value: string): number {
  if (DECIMAL.test(value)) {
    const n = Number(value);
    if (n <= Number.MAX_SAFE_INTEGER) return n;
    throw new MalformedRowError(table, column, `${value} is beyond 2^53 (no ndbinfo figure is that large)`);
  }
  throw new MalformedRowError(table, column, `expected an unsigned number, got ${describe(value)}`);
}

/** A value's text with every secret ndbtop holds taken out (a hostile SQL node may echo the password as a name). */
function text(table: string, column: string, value: unknown, secrets: Secrets): string {
  if (Buffer.isBuffer(value)) return scrub(value.toString('utf8'), secrets);
  if (typeof value === 'string') return scrub(value, secrets);
  throw new MalformedRowError(table, column, `expected a value, got ${describe(value)}`);
}

function describe(value: unknown): string {
  if (value === null) return 'NULL';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return typeof value;
}

export function readValue(table: string, column: ColumnDef, value: unknown, secrets: Secrets): RowValue {
  const t = text(table, column.name, value, secrets);
  return column.kind === 'string' ? t : readNumber(table, column.name, t);
}

/**
 * One row (as an array, in the order of `columns`) checked against the columns' kinds and keyed by field name.
 * A missing or extra value is malformed too: the query names its columns, so the server must send exactly them.
 */
export function readRow(table: TableDef, columns: readonly ColumnDef[], row: unknown, secrets: Secrets): Record<string, RowValue> {
  if (!Array.isArray(row)) throw new MalformedRowError(table.name, '*', `expected a row, got ${describe(row)}`);
  if (row.length !== columns.length) throw new MalformedRowError(table.name, '*', `expected ${columns.length} columns, got ${row.length}`);
  const out: Record<string, RowValue> = {};
  columns.forEach((column, i) => (out[fieldName(column.name)] = readValue(table.name, column, row[i], secrets)));
  return out;
}
