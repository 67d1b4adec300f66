import { mysqlErrors } from './mysql-error.js';

/** The system variables the endpoint answers (what mysql clients ask on connect, and what a monitor may read). */
export function systemVariables(version: string, port: number): Map<string, string | number> {
  return new Map<string, string | number>([
    ['version', version],
    ['version_comment', 'MySQL Cluster Community Server - GPL (ndbtop simulator)'],
    ['version_compile_os', 'Linux'],
    ['version_compile_machine', 'x86_64'],
    // `5.7.36-ndb-7.6.36` carries its NDB release; `8.4.3-cluster` is numbered as NDB is.
    ['ndb_version_string', /ndb-\d+\.\d+\.\d+/.exec(version)?.[0] ?? `ndb-${version.replace(/-cluster$/, '')}`],
    ['hostname', 'ndbtop-sim'],
    ['port', port],
    ['socket', ''],
    ['autocommit', 1],
    ['max_allowed_packet', 67108864],
    ['character_set_client', 'utf8mb4'],
    ['character_set_connection', 'utf8mb4'],
    ['character_set_results', 'utf8mb4'],
    ['character_set_server', 'utf8mb4'],
    ['collation_connection', 'utf8mb4_general_ci'],
    ['collation_server', 'utf8mb4_general_ci'],
    ['sql_mode', 'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'],
    ['transaction_isolation', 'READ-COMMITTED'],
    ['tx_isolation', 'READ-COMMITTED'],
    ['lower_case_table_names', 0],
    ['time_zone', 'SYSTEM'],
    ['system_time_zone', 'UTC'],
    ['wait_timeout', 28800],
    ['interactive_timeout', 28800],
    ['net_write_timeout', 60],
    ['license', 'GPL'],
    ['have_ndbcluster', 'YES'],
  ]);
}

/**
 * `@@name`, `@@session.name`, `@@global.name` outside quotes become `sysvar('name')` (SQLite has no system variables);
 * the result's column names are turned back into what the client wrote.
 */
export function rewriteSystemVariables(sql: string): { sql: string; columnNames: (name: string) => string } {
  const originals = new Map<string, string>();
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === '`') {
      const end = sql.indexOf(c, i + 1);
      const stop = end < 0 ? sql.length : end + 1;
      out += sql.slice(i, stop);
      i = stop;
      continue;
    }
    const m = /^@@(?:(?:global|session|local)\.)?([A-Za-z_][A-Za-z0-9_]*)/i.exec(sql.slice(i, i + 200));
    if (m) {
      const replacement = `sysvar('${m[1]!.toLowerCase()}')`;
      originals.set(replacement, m[0]);
      out += replacement;
      i += m[0].length;
      continue;
    }
    out += c;
    i += 1;
  }
  return {
    sql: out,
    columnNames: (name) => {
      let restored = name;
      for (const [replacement, original] of originals) restored = restored.split(replacement).join(original);
      return restored;
    },
  };
}

/** The SQLite function behind `sysvar(...)`: unknown names are MySQL's error 1193. */
export function sysvarFunction(vars: ReadonlyMap<string, string | number>): (name: string) => string | number {
  return (name) => {
    const v = vars.get(String(name).toLowerCase());
    if (v === undefined) throw new Error(`${UNKNOWN_SYSVAR}${name}`);
    return v;
  };
}

/** The marker an unknown variable's error carries through SQLite, so the engine can give MySQL's error for it. */
export const UNKNOWN_SYSVAR = 'unknown system variable: ';

export function unknownSysvarError(sqliteMessage: string) {
  const at = sqliteMessage.indexOf(UNKNOWN_SYSVAR);
  return at < 0 ? null : mysqlErrors.unknownSystemVariable(sqliteMessage.slice(at + UNKNOWN_SYSVAR.length));
}
