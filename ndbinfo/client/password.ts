import { readFile } from 'node:fs/promises';
import { NdbinfoError } from './errors.js';

export const PASSWORD_ENV = 'NDBTOP_SQL_PASSWORD';

/**
 * The SQL password: from `file` (its first line, so a trailing newline from `echo` is not part of it), else from
 * NDBTOP_SQL_PASSWORD, else none (a user without a password). Never from the command line, where `ps` and shell
 * history would keep it. The file's path may be printed; its content never is.
 */
export async function sqlPassword(file: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  if (file !== undefined) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      const why = (err as NodeJS.ErrnoException).code ?? 'unreadable';
      throw new NdbinfoError('NO_PASSWORD', `cannot read the SQL password file ${JSON.stringify(file)} (${why})`, { cause: err });
    }
    return text.split(/\r?\n/, 1)[0] ?? '';
  }
  const fromEnv = env[PASSWORD_ENV];
  return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
}
