import type { Cell } from '../rows/index.js';

/** A result column as the text protocol's column definition carries it (mysql2's server-side field shape). */
export interface ResultColumn {
  catalog: 'def';
  schema: string;
  table: string;
  orgTable: string;
  name: string;
  orgName: string;
  characterSet: number;
  columnLength: number;
  columnType: number;
  flags: number;
  decimals: number;
}

/** MySQL protocol column types and flags used here. */
const TYPE = { double: 5, null: 6, longlong: 8, long: 3, varString: 253 } as const;
const UNSIGNED_FLAG = 32;
const BINARY_FLAG = 128;
const NUM_FLAG = 32768;
/** utf8mb4_general_ci for text, binary for numbers: what a MySQL server sends. */
const UTF8MB4 = 45;
const BINARY = 63;

function numeric(columnType: number, length: number, unsigned: boolean): Pick<ResultColumn, 'characterSet' | 'columnLength' | 'columnType' | 'flags' | 'decimals'> {
  return { characterSet: BINARY, columnLength: length, columnType, flags: NUM_FLAG | BINARY_FLAG | (unsigned ? UNSIGNED_FLAG : 0), decimals: 0 };
}

/**
 * The wire type of a result column: a column read straight from a table keeps its declared type (INT UNSIGNED →
 * LONG, BIGINT UNSIGNED → LONGLONG, VARCHAR(n) → VAR_STRING; schema-db.ts's DECLARED), so a client converts it as it would a real server's;
 * an expression gets the type of its values (integers LONGLONG, as MySQL types COUNT(*) and integer arithmetic).
 */
export function resultColumn(name: string, declared: string, values: readonly Cell[], schema: string): ResultColumn {
  const base = { catalog: 'def' as const, schema: declared ? schema : '', table: '', orgTable: '', name, orgName: declared ? name : '' };
  const upper = declared.toUpperCase();
  if (upper.startsWith('UNSIGNED32')) return { ...base, ...numeric(TYPE.long, 10, true) };
  if (upper.startsWith('UNSIGNED64')) return { ...base, ...numeric(TYPE.longlong, 20, true) };
  const varchar = /^VARCHAR\((\d+)\)/.exec(upper);
  if (varchar) return { ...base, characterSet: UTF8MB4, columnLength: Number(varchar[1]) * 4, columnType: TYPE.varString, flags: 0, decimals: 0 };
  const present = values.filter((v) => v !== null);
  if (present.length > 0 && present.every((v) => typeof v === 'number' && Number.isInteger(v))) return { ...base, ...numeric(TYPE.longlong, 21, false) };
  if (present.length > 0 && present.every((v) => typeof v === 'number')) return { ...base, ...numeric(TYPE.double, 23, false), decimals: 31 };
  if (present.length === 0 && values.length > 0) return { ...base, characterSet: BINARY, columnLength: 0, columnType: TYPE.null, flags: BINARY_FLAG, decimals: 0 };
  return { ...base, characterSet: UTF8MB4, columnLength: 1024, columnType: TYPE.varString, flags: 0, decimals: 31 };
}
