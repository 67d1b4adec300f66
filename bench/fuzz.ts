import { fuzz, report } from '../electron/test/hostile/harness.js';
import { cliTarget, engineInProcess, eventsInProcess, showInProcess } from '../electron/test/hostile/targets.js';

/**
 * `npm run fuzz [-- --cases 100000 --cli-cases 90 --commands "show --json,events,config --json"]`: a hostile management
 * server (random bytes, truncated replies, a 10 MB line, endless PINGs, 100k nodes, NUL and invalid UTF-8, one
 * byte per 100 ms, silence, mutated replies) against show, events and the engine in this process, then against
 * the CLI commands in their own processes. Prints crashes, hangs, exit codes and worst RSS; exits 1 on a finding.
 */
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const cases = Number(arg('--cases') ?? 100_000);
const cliCases = Number(arg('--cli-cases') ?? 90);
const timeoutMs = Number(arg('--timeout') ?? 400);
// A command added to the CLI (config, …) joins with --commands; each is run with -c and --timeout.
const commands = (arg('--commands') ?? 'show --json,events,config --json').split(',').map((c) => c.trim().split(/\s+/));

const inProcess = await fuzz({ cases, targets: [showInProcess, eventsInProcess(200), engineInProcess(300)], timeoutMs, concurrency: 16, seed: 12, everyBehaviourFirst: true });
console.log(report(inProcess));
const cli = await fuzz({
  cases: cliCases,
  targets: commands.map((argv) => cliTarget(argv, argv[0] === 'events' ? 2000 : undefined)),
  timeoutMs: 1000,
  concurrency: 3,
  seed: 13,
  everyBehaviourFirst: true,
});
console.log(report(cli));
process.exit(inProcess.findings.length + cli.findings.length > 0 ? 1 : 0);
