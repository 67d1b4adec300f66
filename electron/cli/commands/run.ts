import type { Command } from 'commander';
import type { Run } from '../../contract/schemas/runs.js';
import { markPhaseOver, startRunOver, stopRunOver, type RunsEndpoint } from '../../serve/runs-client.js';
import { collectTag } from '../run-options.js';

interface EndpointOpts {
  url: string;
  token?: string;
  json?: boolean;
}

function endpoint(opts: EndpointOpts): RunsEndpoint {
  const token = opts.token ?? (process.env.NDBTOP_TOKEN || undefined);
  return token ? { url: opts.url, token } : { url: opts.url };
}

function print(run: Run, opts: EndpointOpts): void {
  if (opts.json) process.stdout.write(`${JSON.stringify(run)}\n`);
  else process.stdout.write(`${run.id}\n`);
}

function withEndpoint(command: Command): Command {
  return command
    .option('--url <url>', 'the serving ndbtop (ndbtop serve, or ndbtop record --port)', process.env.NDBTOP_URL || 'http://127.0.0.1:8080/')
    .option('--token <token>', 'its --token (default: NDBTOP_TOKEN)')
    .option('--json', 'print the run as JSON instead of its id');
}

/** `ndbtop run start|phase|stop`: a benchmark script's marks from the shell, over the runs endpoint. */
export function registerRun(program: Command): void {
  const run = program.command('run').description('mark benchmark runs on a serving ndbtop: start, phase, stop');
  withEndpoint(run.command('start').description('start a run; prints its id').argument('<name>'))
    .option('--tag <key=value>', 'a tag (repeatable), e.g. --tag compress=on --tag nodes=8', collectTag)
    .option('--phase <name>', 'open the run with this phase')
    .action(async (name: string, opts: EndpointOpts & { tag?: Record<string, string>; phase?: string }) => print(await startRunOver(endpoint(opts), name, opts.tag ?? {}, opts.phase), opts));
  withEndpoint(run.command('phase').description('mark the next phase of a run').argument('<run-id>').argument('<name>')).action(async (id: string, name: string, opts: EndpointOpts) =>
    print(await markPhaseOver(endpoint(opts), id, name), opts),
  );
  withEndpoint(run.command('stop').description('stop a run').argument('<run-id>')).action(async (id: string, opts: EndpointOpts) => print(await stopRunOver(endpoint(opts), id), opts));
}
