import { Command, InvalidArgumentError } from 'commander';
import type { ProfileTls } from '../contract/schemas/settings.js';
import { addMgmTlsOptions, mgmTlsFrom, type TlsCliOptions } from '../cli/options/tls-options.js';
import { addSqlOptions, sqlArgs, type SqlCliOptions } from '../cli/options/sql-options.js';

export interface DesktopArgs {
  connectstring: string | undefined;
  recordFile: string | undefined;
  replayFile: string | undefined;
  pollIntervalMs: number | undefined;
  actionsEnabled: boolean;
  devTools: boolean;
  tls: ProfileTls;
  /** --sql and --sql-password-file as given (absent when neither was); read, the file too, when the engine starts. */
  sql?: SqlCliOptions;
}

function pollMs(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 100 || n > 60_000) throw new InvalidArgumentError('must be a whole number of milliseconds from 100 to 60000');
  return n;
}

/**
 * The desktop app's command line (`ndbtop [-c CONNECTSTRING] [--record FILE] [--replay FILE] …`). Chromium and
 * Electron add switches of their own, so unknown options are ignored rather than fatal. Without -c the engine
 * falls back to NDB_CONNECTSTRING, and without that to the built-in simulated cluster.
 */
export function parseDesktopArgs(argv: readonly string[], env: NodeJS.ProcessEnv): DesktopArgs {
  const program = addSqlOptions(addMgmTlsOptions(new Command()))
    .allowUnknownOption()
    .allowExcessArguments()
    .exitOverride()
    // main.ts shows the error in a dialog; the packaged app has no terminal to print to.
    .configureOutput({ writeErr: () => undefined, writeOut: () => undefined })
    .option('-c, --connectstring <connectstring>')
    .option('--record <file>')
    .option('--replay <file>')
    .option('--poll <ms>', 'poll interval in milliseconds', pollMs)
    .option('--read-only', 'refuse operator actions')
    .option('--dev-tools');
  program.parse([...argv], { from: 'user' });
  const o = program.opts<{ connectstring?: string; record?: string; replay?: string; poll?: number; readOnly?: boolean; devTools?: boolean } & TlsCliOptions & SqlCliOptions>();
  return {
    connectstring: o.connectstring ?? (env.NDB_CONNECTSTRING || undefined),
    recordFile: o.record,
    replayFile: o.replay,
    pollIntervalMs: o.poll,
    actionsEnabled: o.readOnly !== true,
    devTools: o.devTools === true,
    tls: mgmTlsFrom(o),
    ...(sqlArgs(o).length > 0 ? { sql: sqlOptionsOf(o) } : {}),
  };
}

/** The SQL options given, without commander's other fields. */
function sqlOptionsOf(o: SqlCliOptions): SqlCliOptions {
  const { sql, sqlPasswordFile, sqlCa, sqlServerPublicKey } = o;
  return { ...(sql ? { sql } : {}), ...(sqlPasswordFile !== undefined ? { sqlPasswordFile } : {}), ...(sqlCa !== undefined ? { sqlCa } : {}), ...(sqlServerPublicKey !== undefined ? { sqlServerPublicKey } : {}) };
}
