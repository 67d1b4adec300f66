import { fuzz, report } from '../electron/test/hostile/harness.js';
import { cliTarget, engineInProcess, eventsInProcess, showInProcess } from '../electron/test/hostile/targets.js';

/**
 * `npm run fuzz [-- --cases 100000 --cli-cases 90 --commands "show --json,events,config --json" --from 0 --concurrency 16]`: a hostile management
 * server (random bytes, truncated replies, a 10 MB line, endless PINGs, 100k nodes, NUL and invalid UTF-8, one
 * byte per 100 ms, silence, mutated replies) against show, events and the engine in this process, then against
 * the CLI commands in their own processes. Prints crashes, hangs, exit codes and worst RSS; exits 1 on a finding.
 * The cases are numbered: `--from N` starts at case N, so a long run can be split over processes run side by side
 * (shards: `--cases 50000` and `--cases 50000 --from 50000 --cli-cases 0` are the 100,000-case run in two halves).
 */
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const cases = Number(arg('--cases') ?? 100_000);
const cliCases = Number(arg('--cli-cases') ?? 90);
const timeoutMs = Number(arg('--timeout') ?? 400);
const from = Number(arg('--from') ?? 0);
const concurrency = Number(arg('--concurrency') ?? 16);
// A command added to the CLI (config, …) joins with --commands; each is run with -c and --timeout.
const commands = (arg('--commands') ?? 'show --json,events,config --json').split(',').map((c) => c.trim().split(/\s+/));

const started = Date.now();
const inProcess = await fuzz({ cases, from, targets: [showInProcess, eventsInProcess(200), engineInProcess(300)], timeoutMs, concurrency, seed: 12, everyBehaviourFirst: true });
console.log(report(inProcess));
console.log(`  cases ${from} to ${from + cases - 1} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
const cli =
  cliCases > 0
    ? await fuzz({
        cases: cliCases,
        targets: commands.map((argv) => cliTarget(argv, argv[0] === 'events' ? 2000 : undefined)),
        timeoutMs: 1000,
        concurrency: 3,
        seed: 13,
        everyBehaviourFirst: true,
      })
    : null;
if (cli) console.log(report(cli));
process.exit(inProcess.findings.length + (cli?.findings.length ?? 0) > 0 ? 1 : 0);
