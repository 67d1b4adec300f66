import type { Command } from 'commander';
import { SCENARIOS, SCENARIO_NAMES, startSimulator, type ScenarioName } from '../../../native-mgm/sim/index.js';
import { InvalidArgumentError } from 'commander';
import { httpRunMarker } from '../../serve/runs-client.js';
import { intOption, positiveNumber } from '../options.js';

function scenarioName(value: string): ScenarioName {
  if (!(SCENARIO_NAMES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`unknown scenario; one of ${SCENARIO_NAMES.join(', ')}`);
  }
  return value as ScenarioName;
}

interface SimOpts {
  port: number;
  host: string;
  dataNodes: number;
  replicas: number;
  mgmNodes: number;
  apiNodes: number;
  scenario: ScenarioName;
  speed: number;
  seed: number;
  listScenarios?: boolean;
  markUrl?: string;
  token?: string;
}

export function registerSim(program: Command): void {
  program
    .command('sim')
    .description('run a simulated NDB cluster: real ndb_mgmd protocol on TCP, until interrupted')
    .option('--port <port>', 'port of the first management server; the second gets port+1', intOption(0, 65534), 1186)
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--data-nodes <n>', 'data nodes (1..144, a multiple of --replicas)', intOption(1, 144), 4)
    .option('--replicas <r>', 'NoOfReplicas (1..4)', intOption(1, 4), 2)
    .option('--mgm-nodes <m>', 'management servers (1..2)', intOption(1, 2), 1)
    .option('--api-nodes <k>', 'API/SQL node slots', intOption(0, 253), 4)
    .option('--scenario <name>', `what the cluster does: ${SCENARIO_NAMES.join(', ')}`, scenarioName, 'steady')
    .option('--speed <x>', 'time acceleration (2 = twice as fast)', positiveNumber, 1)
    .option('--seed <n>', 'seed of the load jitter', intOption(0, 2 ** 31 - 1), 1)
    .option('--mark-url <url>', 'benchmark scenarios mark their runs on this serving ndbtop (POST /api/runs)')
    .option('--token <token>', 'the --token of --mark-url')
    .option('--list-scenarios', 'list the scenarios and exit')
    .action(async (opts: SimOpts) => {
      if (opts.listScenarios) {
        for (const s of SCENARIOS) process.stdout.write(`${s.name.padEnd(16)} ${s.description}\n`);
        return;
      }
      const ports = opts.port === 0 ? [] : Array.from({ length: opts.mgmNodes }, (_, i) => opts.port + i);
      const sim = await startSimulator({
        host: opts.host,
        ports,
        dataNodes: opts.dataNodes,
        replicas: opts.replicas,
        mgmNodes: opts.mgmNodes,
        apiNodes: opts.apiNodes,
        scenario: opts.scenario,
        speed: opts.speed,
        seed: opts.seed,
        waitForMarker: opts.markUrl !== undefined,
      });
      if (opts.markUrl) sim.marks.attach(httpRunMarker(opts.token ? { url: opts.markUrl, token: opts.token } : { url: opts.markUrl }));
      process.stdout.write(`ndbtop sim: scenario ${opts.scenario}, ${opts.dataNodes} data nodes, speed ${opts.speed}\n`);
      process.stdout.write(`connectstring: ${sim.connectstring}\n`);
      await new Promise<void>((resolve) => {
        const stop = (): void => void sim.close().then(resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
