import type { Command } from 'commander';
import { NdbinfoError } from '../../../ndbinfo/client/errors.js';
import { PASSWORD_ENV, sqlPassword } from '../../../ndbinfo/client/password.js';
import { parseSqlUrl, type SqlNodeAddress } from '../../../ndbinfo/client/sql-url.js';

export interface SqlCliOptions {
  sql?: string[];
  sqlPasswordFile?: string;
}

/** What a connecting command hands the SQL source (null: no --sql, no SQL source). */
export interface SqlSourceConfig {
  addresses: SqlNodeAddress[];
  password: string | undefined;
}

// The URLs are kept as given and checked in the action, not by commander: its message for a refused value
// repeats the value, which would print a password someone put in the URL.
const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** `--sql URL` (repeatable: the next is used when one fails) and `--sql-password-file`, for every connecting command. */
export function addSqlOptions(command: Command): Command {
  return command
    .option('--sql <url>', 'an SQL node to read ndbinfo from, mysql://USER@HOST[:PORT] (repeatable: the next is used when one fails)', collect)
    .option('--sql-password-file <file>', `file whose first line is the SQL user's password (else ${PASSWORD_ENV}; never on the command line)`);
}

/** The SQL nodes and password from the options; a bad URL or unreadable password file is a usage error (exit 2). */
export async function sqlSourceFrom(opts: SqlCliOptions, env: NodeJS.ProcessEnv = process.env): Promise<SqlSourceConfig | null> {
  if (!opts.sql || opts.sql.length === 0) {
    if (opts.sqlPasswordFile !== undefined) throw new NdbinfoError('BAD_URL', '--sql-password-file needs --sql mysql://USER@HOST[:PORT]');
    return null;
  }
  return { addresses: opts.sql.map(parseSqlUrl), password: await sqlPassword(opts.sqlPasswordFile, env) };
}
