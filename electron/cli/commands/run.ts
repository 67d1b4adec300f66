import type { Command } from 'commander';
import { markPhaseOver, startRunOver, stopRunOver } from '../../serve/runs-client.js';
import { collectTag } from '../options/run-options.js';
import { endpointFrom as endpoint, printMark as print, withEndpoint as withEndpointJson, type EndpointOpts } from '../serve-endpoint.js';

const withEndpoint = (command: Command): Command => withEndpointJson(command, 'print the run as JSON instead of its id');

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
