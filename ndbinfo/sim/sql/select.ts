import type { Database } from 'sql.js';
import type { Cell } from '../rows/index.js';
import { mysqlErrors, MysqlError } from './mysql-error.js';
import { resultColumn, type ResultColumn } from './result-columns.js';
import { rewriteSystemVariables, unknownSysvarError } from './sysvars.js';
import type { TimeSlice } from './time-slice.js';

export interface ResultSet {
  columns: ResultColumn[];
  rows: Cell[][];
}

/** The MySQL error for what SQLite said about a statement (`sql` as the client wrote it, for the "near" text). */
export function mysqlErrorFor(message: string, sql: string, database: string | null): MysqlError {
  const sysvar = unknownSysvarError(message);
  if (sysvar) return sysvar;
  const table = /no such table: (?:([\w$]+)\.)?([\w$]+)/.exec(message);
  if (table) {
    if (table[1]) return mysqlErrors.noSuchTable(table[1], table[2]!);
    return database === null ? mysqlErrors.noDatabaseSelected() : mysqlErrors.noSuchTable(database, table[2]!);
  }
  const column = /no such column: (.+)$/.exec(message);
  if (column) return mysqlErrors.unknownColumn(column[1]!);
  const fn = /no such function: ([\w$]+)/.exec(message);
  if (fn) return mysqlErrors.noSuchFunction(database ?? 'ndbinfo', fn[1]!);
  const near = /near "([^"]*)": syntax error/.exec(message);
  if (near) {
    const at = sql.toLowerCase().indexOf(near[1]!.toLowerCase());
    return mysqlErrors.syntax(at < 0 ? near[1]! : sql.slice(at, at + 80));
  }
  if (/incomplete input|syntax error/.test(message)) return mysqlErrors.syntax('');
  if (/readonly|read only/.test(message)) return mysqlErrors.readOnly(database ?? 'ndbinfo');
  return mysqlErrors.other(message);
}

/** Declared types of a statement's result columns: a temporary view over it reports them ('' for expressions). */
function declaredTypes(db: Database, sql: string): string[] | null {
  db.run('PRAGMA query_only = OFF');
  try {
    db.run(`CREATE TEMP VIEW ndbtop_result_types AS ${sql}`);
    const info = db.exec('PRAGMA temp.table_info(ndbtop_result_types)')[0];
    return info ? info.values.map((r) => String(r[2] ?? '')) : [];
  } catch {
    return null;
  } finally {
    db.run('DROP VIEW IF EXISTS temp.ndbtop_result_types');
    db.run('PRAGMA query_only = ON');
  }
}

/**
 * Runs one SELECT as the client wrote it, read-only, with each column's MySQL type, stepping its rows a slice at a
 * time. More than one statement is a syntax error, as on a server without multi-statements.
 */
export async function runSelect(db: Database, clientSql: string, database: string | null, slice: TimeSlice): Promise<ResultSet> {
  const { sql, columnNames } = rewriteSystemVariables(clientSql);
  db.run('PRAGMA query_only = ON');
  try {
    // The iterator frees each statement as it moves on: it only counts them and finds where the first one ends.
    let count = 0;
    let first = '';
    for (const s of db.iterateStatements(sql)) if (count++ === 0) first = s.getSQL();
    if (count === 0) throw mysqlErrors.emptyQuery();
    if (count > 1) throw mysqlErrors.syntax(sql.slice(first.length).trim().slice(0, 80));
    const stmt = db.prepare(sql);
    try {
      const rows: Cell[][] = [];
      while (stmt.step()) {
        rows.push(stmt.get().map((v) => (v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : v)));
        await slice.row();
      }
      const names = stmt.getColumnNames();
      const types = declaredTypes(db, stmt.getSQL().replace(/;\s*$/, '')) ?? names.map(() => '');
      return { columns: names.map((n, i) => resultColumn(columnNames(n), types[i] ?? '', rows.map((r) => r[i] ?? null), database ?? '')), rows };
    } finally {
      stmt.free();
    }
  } catch (err) {
    if (err instanceof MysqlError) throw err;
    throw mysqlErrorFor(err instanceof Error ? err.message : String(err), clientSql, database);
  }
}
