#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { registerConfig } from './commands/config.js';
import { registerDesktop } from './commands/desktop.js';
import { registerEvents } from './commands/events.js';
import { registerNdbinfo } from './commands/ndbinfo.js';
import { registerRecord } from './commands/record.js';
import { registerReplay } from './commands/replay.js';
import { registerReport } from './commands/report.js';
import { registerRollingRestart } from './commands/rolling-restart.js';
import { registerRun } from './commands/run.js';
import { registerMaintenance } from './commands/maintenance.js';
import { registerAlerts } from './commands/alerts.js';
import { registerIncidents } from './commands/incidents.js';
import { registerBackup } from './commands/backup.js';
import { registerServe } from './commands/serve.js';
import { registerShow } from './commands/show.js';
import { registerSim } from './commands/sim.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { printText } from './format/terminal-text.js';

/**
 * `ndbtop` on the command line. Each sub-command lives in commands/<name>.ts and registers itself here; they
 * all run in plain Node, so scripts and tests use them without Electron. A command imports the engine, a server,
 * the simulator or zod inside its action (`await import`), never at the top: every command loads what the others
 * import at the top (scripts/cli-bundle.ts; electron/cli/test/cli-bundle.test.ts keeps it so).
 */
// `ndbtop events | head` closes our stdout; that is the reader being done, not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

const program = new Command()
  .name('ndbtop')
  .description('Monitor for MySQL NDB Cluster, speaking the management server protocol (ndb_mgmd, port 1186)')
  .showHelpAfterError()
  // Options before a sub-command belong to `ndbtop` itself (the desktop app); after it, to the sub-command.
  .enablePositionalOptions()
  .exitOverride();

registerDesktop(program);
registerShow(program);
registerConfig(program);
registerEvents(program);
registerNdbinfo(program);
registerSim(program);
registerServe(program);
registerReplay(program);
registerRecord(program);
registerReport(program);
registerRun(program);
registerMaintenance(program);
registerAlerts(program);
registerIncidents(program);
registerRollingRestart(program);
registerBackup(program);

/**
 * Leaves at once with the code a failure decided. Left to drain, Node's teardown restores the default action of
 * SIGINT/SIGTERM before the process is gone, so a signal in those last milliseconds (a script's Ctrl-C, a
 * supervisor's stop) killed it and turned the failure's code into 130. The listeners installed here keep the
 * signals caught until exit; stdout and stderr are synchronous for files and pipes, so nothing printed is lost.
 */
function exitWith(code: number): never {
  const ignore = (): void => undefined;
  process.on('SIGINT', ignore);
  process.on('SIGTERM', ignore);
  process.exit(code);
}

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exitCode = err.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
  } else {
    printText(process.stderr, `ndbtop: ${err instanceof Error ? err.message : String(err)}\n`);
    exitWith(exitCodeFor(err));
  }
}
