import type { ColumnDef, TableDef } from '../schema/tables.js';

const SQL_TYPE: Record<ColumnDef['kind'], string> = { int: 'INT UNSIGNED', bigint: 'BIGINT UNSIGNED', string: 'VARCHAR(512)' };

export type FixtureValue = number | string;

function literal(v: FixtureValue): string {
  return typeof v === 'number' ? String(v) : `'${v.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** CREATE TABLE for `table` in schema `schema`, its columns as the server declares them (tables.ts). */
export function createTable(table: TableDef, schema = 'ndbinfo'): string {
  return `CREATE TABLE ${schema}.\`${table.name}\` (${table.columns.map((c) => `\`${c.name}\` ${SQL_TYPE[c.kind]} NOT NULL`).join(', ')});`;
}

/** INSERT of rows given by column name; every column of the table must be given (a test says every value). */
export function insertRows(table: TableDef, rows: ReadonlyArray<Record<string, FixtureValue>>, schema = 'ndbinfo'): string {
  if (rows.length === 0) return '';
  const values = rows.map((row) => {
    const cells = table.columns.map((c) => {
      const v = row[c.name];
      if (v === undefined) throw new Error(`fixture row of ${table.name} lacks ${c.name}`);
      return literal(v);
    });
    return `(${cells.join(', ')})`;
  });
  return `INSERT INTO ${schema}.\`${table.name}\` VALUES ${values.join(', ')};`;
}
