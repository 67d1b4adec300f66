import type { ColumnDef, TableDef } from '../schema/tables.js';
import { MalformedRowError } from './errors.js';

export type RowValue = number | string;

/** `node_restart_status_int` → `nodeRestartStatusInt`, `OS_user` → `osUser`: the typed rows' field names. */
export function fieldName(column: string): string {
  return column.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

const DECIMAL = /^\d+(?:\.\d+)?$/;

/**
 * A number column as the server sent it. mysql2 gives INT and safe BIGINT values as numbers, BIGINT beyond 2^53
 * (with supportBigNumbers) and DECIMAL (what the views' SUM() makes of a number) as strings: each is accepted
 * when it is a non-negative number (every ndbinfo number column is unsigned) that a double holds exactly enough.
 */
function readNumber(table: string, column: string, value: unknown): number {
  if (typeof value === 'number') {
    if (Number.isFinite(value) && value >= 0) return value;
    throw new MalformedRowError(table, column, `expected an unsigned number, got ${value}`);
  }
  if (typeof value === 'bigint') value = value.toString();
  if (typeof value === 'string' && DECIMAL.test(value)) {
    const n = Number(value);
    if (n <= Number.MAX_SAFE_INTEGER) return n;
    throw new MalformedRowError(table, column, `${value} is beyond 2^53 (no ndbinfo figure is that large)`);
  }
  throw new MalformedRowError(table, column, `expected an unsigned number, got ${describe(value)}`);
}

function readString(table: string, column: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  throw new MalformedRowError(table, column, `expected text, got ${describe(value)}`);
}

function describe(value: unknown): string {
  if (value === null) return 'NULL';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return typeof value;
}

export function readValue(table: string, column: ColumnDef, value: unknown): RowValue {
  return column.kind === 'string' ? readString(table, column.name, value) : readNumber(table, column.name, value);
}

/**
 * One row (as an array, in the order of `columns`) checked against the columns' kinds and keyed by field name.
 * A missing or extra value is malformed too: the query names its columns, so the server must send exactly them.
 */
export function readRow(table: TableDef, columns: readonly ColumnDef[], row: unknown): Record<string, RowValue> {
  if (!Array.isArray(row)) throw new MalformedRowError(table.name, '*', `expected a row, got ${describe(row)}`);
  if (row.length !== columns.length) throw new MalformedRowError(table.name, '*', `expected ${columns.length} columns, got ${row.length}`);
  const out: Record<string, RowValue> = {};
  columns.forEach((column, i) => (out[fieldName(column.name)] = readValue(table.name, column, row[i])));
  return out;
}
