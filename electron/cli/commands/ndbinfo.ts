import type { Command } from 'commander';
import { NdbinfoError } from '../../../ndbinfo/client/errors.js';
import { withDeadline } from '../deadline.js';
import { formatNdbinfo, ndbinfoJson } from '../format/format-ndbinfo.js';
import { intOption } from '../options/options.js';
import { addSqlOptions, sqlSourceFrom, type SqlCliOptions } from '../options/sql-options.js';
import { printText } from '../format/terminal-text.js';
import { escapedJson } from '../../contract/page-safe/outside-text.js';

interface NdbinfoOpts extends SqlCliOptions {
  timeout: number;
  json?: boolean;
}

/** `ndbtop ndbinfo`: one consistent reading of the data nodes through an SQL node's ndbinfo schema. */
export function registerNdbinfo(program: Command): void {
  addSqlOptions(program.command('ndbinfo'))
    .description("inside the data nodes: threads' CPU, restart phases, redo log, links and memory, read once from an SQL node's ndbinfo schema")
    .option('--timeout <ms>', 'deadline for the whole command (connecting, logging in and every query)', intOption(100, 600_000), 5000)
    .option('--json', 'print {"sqlNode", "serverVersion", "tables", "missing", "threads", "restarts", "redo", "transporters", "memory"}')
    .addHelpText('after', '\nThe password comes from --sql-password-file FILE or NDBTOP_SQL_PASSWORD, never from the command line.')
    .action(async (opts: NdbinfoOpts) => {
      const config = await sqlSourceFrom(opts);
      if (!config) throw new NdbinfoError('BAD_URL', 'ndbtop ndbinfo needs --sql mysql://USER@HOST[:PORT]');
      const { tlsCa, serverPublicKey } = config;
      const timeouts = { connectTimeoutMs: opts.timeout, queryTimeoutMs: opts.timeout, ...(tlsCa !== undefined ? { tlsCa } : {}), ...(serverPublicKey !== undefined ? { serverPublicKey } : {}) };
      const { readOnce } = await import('../../../ndbinfo/client/read-once.js');
      const snap = await withDeadline(opts.timeout, 'ndbtop ndbinfo', (signal) => readOnce(config.addresses, config.password, timeouts, signal));
      if (opts.json) process.stdout.write(`${escapedJson(ndbinfoJson(snap), 2)}\n`);
      else printText(process.stdout, formatNdbinfo(snap));
    });
}
