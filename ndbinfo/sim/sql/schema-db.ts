import type { Database, SqlJsStatic } from 'sql.js';
import type { ColumnKind, TableDef } from '../../schema/tables.js';

/** The schemas the endpoint has: ndbinfo (the tables) and information_schema (what describes them). */
export const SCHEMAS = ['information_schema', 'ndbinfo'] as const;

/**
 * Declared types of the SQLite columns: a result column's declared type (read back through a view) becomes its wire
 * type. Numbers are stored with REAL affinity (the names hold no "INT"), so `used / total` divides as MySQL's `/`
 * does rather than truncating as SQLite's integer division would; whole values still come out as whole numbers.
 */
export const DECLARED: Readonly<Record<ColumnKind, string>> = { int: 'UNSIGNED32 FLOAT', bigint: 'UNSIGNED64 FLOAT', string: 'VARCHAR(512)' };
/** The MySQL column type of each kind, as information_schema and SHOW COLUMNS give it. */
const MYSQL_TYPE: Readonly<Record<ColumnKind, string>> = { int: 'int unsigned', bigint: 'bigint unsigned', string: 'varchar(512)' };

const INFORMATION_SCHEMA = [
  'CREATE TABLE information_schema.schemata (CATALOG_NAME VARCHAR(64), SCHEMA_NAME VARCHAR(64), DEFAULT_CHARACTER_SET_NAME VARCHAR(64), DEFAULT_COLLATION_NAME VARCHAR(64))',
  'CREATE TABLE information_schema.tables (TABLE_CATALOG VARCHAR(64), TABLE_SCHEMA VARCHAR(64), TABLE_NAME VARCHAR(64), TABLE_TYPE VARCHAR(64), ENGINE VARCHAR(64), TABLE_ROWS UNSIGNED64 FLOAT, TABLE_COMMENT VARCHAR(2048))',
  'CREATE TABLE information_schema.columns (TABLE_CATALOG VARCHAR(64), TABLE_SCHEMA VARCHAR(64), TABLE_NAME VARCHAR(64), COLUMN_NAME VARCHAR(64), ORDINAL_POSITION UNSIGNED32 FLOAT, IS_NULLABLE VARCHAR(3), DATA_TYPE VARCHAR(64), COLUMN_TYPE VARCHAR(64))',
];

// Loaded on first use: a CLI command or an engine without the simulator's SQL node never pays for sql.js.
let sqlJs: Promise<SqlJsStatic> | null = null;

/**
 * A SQLite database with the ndbinfo tables `tables` (those of the SQL node's release; empty, the snapshot fills
 * them) and information_schema describing them, each an attached database under its MySQL name, so
 * `ndbinfo.cpustat`, `cpustat` and `information_schema.tables` all resolve as a MySQL client writes them.
 */
export async function createSchemaDatabase(tables: readonly TableDef[], functions: Readonly<Record<string, (...args: never[]) => string | number | null>>): Promise<Database> {
  sqlJs ??= import('sql.js').then((m) => m.default());
  const db = new (await sqlJs).Database();
  db.run("ATTACH DATABASE ':memory:' AS ndbinfo");
  db.run("ATTACH DATABASE ':memory:' AS information_schema");
  for (const sql of INFORMATION_SCHEMA) db.run(sql);
  for (const schema of SCHEMAS) db.run('INSERT INTO information_schema.schemata VALUES (?, ?, ?, ?)', ['def', schema, 'utf8mb4', 'utf8mb4_general_ci']);
  for (const t of tables) {
    db.run(`CREATE TABLE ndbinfo.${t.name} (${t.columns.map((c) => `"${c.name}" ${DECLARED[c.kind]}`).join(', ')})`);
    db.run('INSERT INTO information_schema.tables VALUES (?, ?, ?, ?, ?, NULL, ?)', ['def', 'ndbinfo', t.name, 'VIEW', null, '']);
    t.columns.forEach((c, i) => {
      const dataType = c.kind === 'string' ? 'varchar' : c.kind === 'int' ? 'int' : 'bigint';
      db.run('INSERT INTO information_schema.columns VALUES (?, ?, ?, ?, ?, ?, ?, ?)', ['def', 'ndbinfo', t.name, c.name, i + 1, 'YES', dataType, MYSQL_TYPE[c.kind]]);
    });
  }
  for (const [name, fn] of Object.entries(functions)) db.create_function(name, fn);
  return db;
}
