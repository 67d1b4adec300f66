import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { NdbinfoError } from '../../../ndbinfo/client/errors.js';
import { PASSWORD_ENV, sqlPassword } from '../../../ndbinfo/client/password.js';
import { parseSqlUrl } from '../../../ndbinfo/client/sql-url.js';
import type { SqlSourceSpec } from '../../engine/facts/ndbinfo/sql-watch.js';

export interface SqlCliOptions {
  sql?: string[];
  sqlPasswordFile?: string;
  sqlCa?: string;
  sqlServerPublicKey?: string;
}

/** What a connecting command hands the SQL source (null: no --sql, no SQL source). */
export type SqlSourceConfig = SqlSourceSpec;

// The URLs are kept as given and checked in the action, not by commander: its message for a refused value
// repeats the value, which would print a password someone put in the URL.
const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/**
 * `--sql URL` (repeatable: the next is used when one fails), `--sql-password-file`, and what lets an SQL node have
 * the password itself (auth-plugins.ts): `--sql-ca` (TLS, server verified) or `--sql-server-public-key`.
 */
export function addSqlOptions(command: Command): Command {
  return command
    .option('--sql <url>', 'an SQL node to read ndbinfo from, mysql://USER@HOST[:PORT] (repeatable: the next is used when one fails)', collect)
    .option('--sql-password-file <file>', `file whose first line is the SQL user's password (else ${PASSWORD_ENV}; never on the command line)`)
    .option('--sql-ca <file>', "CA certificate (PEM) that signed the SQL nodes' certificates: TLS always, the server verified")
    .option('--sql-server-public-key <file>', "the SQL nodes' RSA public key (PEM), for caching_sha2_password or sha256_password users without --sql-ca");
}

/** The SQL options as command-line words, to hand them on (desktop launcher → Electron); never the password. */
export function sqlArgs(opts: SqlCliOptions): string[] {
  return [
    ...(opts.sql ?? []).flatMap((url) => ['--sql', url]),
    ...(opts.sqlPasswordFile !== undefined ? ['--sql-password-file', opts.sqlPasswordFile] : []),
    ...(opts.sqlCa !== undefined ? ['--sql-ca', opts.sqlCa] : []),
    ...(opts.sqlServerPublicKey !== undefined ? ['--sql-server-public-key', opts.sqlServerPublicKey] : []),
  ];
}

async function pem(option: string, file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new NdbinfoError('TLS', `cannot read ${option} ${JSON.stringify(file)} (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`, { cause: err });
  }
}

/**
 * The SQL nodes, password and server proofs from the options; a bad URL or unreadable password file is a usage
 * error (exit 2), an unreadable CA or key file a TLS one (exit 7).
 */
export async function sqlSourceFrom(opts: SqlCliOptions, env: NodeJS.ProcessEnv = process.env): Promise<SqlSourceConfig | null> {
  if (!opts.sql || opts.sql.length === 0) {
    const stray = [opts.sqlPasswordFile !== undefined && '--sql-password-file', opts.sqlCa !== undefined && '--sql-ca', opts.sqlServerPublicKey !== undefined && '--sql-server-public-key'].find(Boolean);
    if (stray) throw new NdbinfoError('BAD_URL', `${stray} needs --sql mysql://USER@HOST[:PORT]`);
    return null;
  }
  const addresses = opts.sql.map(parseSqlUrl);
  const password = await sqlPassword(opts.sqlPasswordFile, env);
  return {
    addresses,
    password,
    ...(opts.sqlCa !== undefined ? { tlsCa: await pem('--sql-ca', opts.sqlCa) } : {}),
    ...(opts.sqlServerPublicKey !== undefined ? { serverPublicKey: await pem('--sql-server-public-key', opts.sqlServerPublicKey) } : {}),
  };
}
