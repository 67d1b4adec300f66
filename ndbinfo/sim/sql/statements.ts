import { mysqlErrors } from './mysql-error.js';
import { SCHEMAS } from './schema-db.js';

/** What a client's statement asks for, once MySQL's own statements are told from the SELECTs SQLite runs. */
export type Statement =
  | { kind: 'ok' }
  | { kind: 'use'; database: string }
  | { kind: 'select'; sql: string }
  | { kind: 'variables'; like: string | null };

const quote = (s: string): string => `'${s.replace(/'/g, "''")}'`;
const ident = String.raw`(\`[^\`]+\`|[\w$]+)`;
const unquote = (s: string): string => s.replace(/^`|`$/g, '');
const LIKE = String.raw`(?:\s+like\s+('(?:[^']|'')*'))?`;

function knownDatabase(name: string): string {
  const db = name.toLowerCase();
  if (!(SCHEMAS as readonly string[]).includes(db)) throw mysqlErrors.unknownDatabase(name);
  return db;
}

function showTables(full: boolean, from: string | undefined, like: string | undefined, current: string | null): Statement {
  const db = from ? knownDatabase(unquote(from)) : current;
  if (db === null) throw mysqlErrors.noDatabaseSelected();
  const type = full ? ', TABLE_TYPE AS Table_type' : '';
  return { kind: 'select', sql: `SELECT TABLE_NAME AS Tables_in_${db}${type} FROM information_schema.tables WHERE TABLE_SCHEMA = ${quote(db)}${like ? ` AND TABLE_NAME LIKE ${like}` : ''} ORDER BY 1` };
}

function showColumns(table: string, from: string | undefined, current: string | null): Statement {
  const db = from ? knownDatabase(unquote(from)) : current;
  if (db === null) throw mysqlErrors.noDatabaseSelected();
  return {
    kind: 'select',
    sql: `SELECT COLUMN_NAME AS Field, COLUMN_TYPE AS Type, IS_NULLABLE AS "Null", '' AS "Key", NULL AS "Default", '' AS Extra FROM information_schema.columns WHERE TABLE_SCHEMA = ${quote(db)} AND TABLE_NAME = ${quote(unquote(table))} ORDER BY ORDINAL_POSITION`,
  };
}

/** Strips comments and the trailing semicolon a client may send around a statement. */
function bare(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/^\s*(?:(?:--|#)[^\n]*\n\s*)*/, '').trim().replace(/;\s*$/, '').trim();
}

/**
 * MySQL's statements that SQLite does not have (USE, SET, SHOW, DESCRIBE, transactions) become what they mean here;
 * SELECTs go to SQLite as written. Anything that would write is refused: ndbinfo is read-only.
 */
export function classify(text: string, current: string | null): Statement {
  const sql = bare(text);
  if (sql === '') throw mysqlErrors.emptyQuery();
  const first = /^[a-z(]+/i.exec(sql)?.[0].toLowerCase() ?? '';
  if (first === 'select' || first === 'with' || first.startsWith('(')) return { kind: 'select', sql };
  if (['set', 'begin', 'commit', 'rollback', 'start'].includes(first)) return { kind: 'ok' };
  if (['insert', 'update', 'delete', 'replace', 'create', 'drop', 'alter', 'truncate', 'rename'].includes(first)) {
    const target = new RegExp(String.raw`(?:into|update|from|table|view|database|schema)\s+(?:if\s+(?:not\s+)?exists\s+)?(?:${ident}\.)?${ident}`, 'i').exec(sql);
    throw mysqlErrors.readOnly(target ? unquote(target[2]!) : (current ?? 'ndbinfo'));
  }
  let m = new RegExp(String.raw`^use\s+${ident}$`, 'i').exec(sql);
  if (m) return { kind: 'use', database: knownDatabase(unquote(m[1]!)) };
  if ((m = new RegExp(String.raw`^show\s+(?:databases|schemas)${LIKE}$`, 'i').exec(sql))) {
    return { kind: 'select', sql: `SELECT SCHEMA_NAME AS "Database" FROM information_schema.schemata${m[1] ? ` WHERE SCHEMA_NAME LIKE ${m[1]}` : ''} ORDER BY 1` };
  }
  if ((m = new RegExp(String.raw`^show\s+(full\s+)?tables(?:\s+(?:from|in)\s+${ident})?${LIKE}$`, 'i').exec(sql))) return showTables(Boolean(m[1]), m[2], m[3], current);
  if ((m = new RegExp(String.raw`^show\s+(?:full\s+)?(?:columns|fields)\s+(?:from|in)\s+(?:${ident}\.)?${ident}(?:\s+(?:from|in)\s+${ident})?$`, 'i').exec(sql))) return showColumns(m[2]!, m[3] ?? m[1], current);
  if ((m = new RegExp(String.raw`^(?:describe|desc|explain)\s+(?:${ident}\.)?${ident}$`, 'i').exec(sql))) return showColumns(m[2]!, m[1], current);
  if ((m = new RegExp(String.raw`^show\s+(?:session\s+|global\s+)?variables${LIKE}$`, 'i').exec(sql))) return { kind: 'variables', like: m[1] ? m[1].slice(1, -1).replace(/''/g, "'") : null };
  if (/^show\s+(?:warnings|errors)(?:\s+limit\s+\d+)?$/i.test(sql)) return { kind: 'select', sql: "SELECT 'Note' AS Level, 0 AS Code, '' AS Message WHERE 0" };
  if (/^show\s+(?:session\s+|global\s+)?status(?:\s+like\s+'[^']*')?$/i.test(sql)) return { kind: 'select', sql: "SELECT '' AS Variable_name, '' AS Value WHERE 0" };
  throw mysqlErrors.syntax(sql.slice(0, 80));
}
