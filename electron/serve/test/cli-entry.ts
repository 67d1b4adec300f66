import { Command, CommanderError } from 'commander';
import { registerReplay } from '../../cli/commands/replay.js';
import { registerServe } from '../../cli/commands/serve.js';

// The serve and replay commands on a program of their own, with the exit-code mapping of electron/cli/ndbtop.ts
// (usage errors → 2), so their tests do not depend on which other commands the CLI registers.
const program = new Command().name('ndbtop').exitOverride();
registerServe(program);
registerReplay(program);
try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exitCode = err.exitCode === 0 ? 0 : 2;
  else {
    process.stderr.write(`ndbtop: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}
