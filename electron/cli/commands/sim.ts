import type { Command } from 'commander';
import { SCENARIOS, SCENARIO_NAMES, type ScenarioName } from '../../../native-mgm/sim/scenarios/index.js';
import { InvalidArgumentError } from 'commander';
import { readFileSync } from 'node:fs';
import { ConfigIniError, parseConfigIni, type ClusterConfig } from '../../../native-mgm/config/index.js';
import { httpRunMarker } from '../../serve/runs-client.js';
import { intOption, isOneOf, positiveNumber } from '../options/options.js';
import { makeCerts } from '../../../native-mgm/tls/make-certs.js';
import { SIM_RELEASES, simVersion } from '../../../native-mgm/sim/config/sim-versions.js';

function releaseName(value: string): string {
  try {
    return simVersion(value);
  } catch {
    throw new InvalidArgumentError(`not a release: give major.minor.build (8.0.22) or a family, ${[...SIM_RELEASES.keys()].map((f) => `${f}.x`).join(', ')}`);
  }
}

function scenarioName(value: string): ScenarioName {
  if (!isOneOf(SCENARIO_NAMES, value)) throw new InvalidArgumentError(`unknown scenario; one of ${SCENARIO_NAMES.join(', ')}`);
  return value;
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
  tlsSearchPath?: string;
  requireTls?: boolean;
  makeCerts?: string;
  config?: string;
  sqlPort?: number;
  sqlUser: string;
  sqlPasswordFile?: string;
  version: string;
}

/**
 * Management servers on different hosts usually share a port (1186); on the one host the simulator runs on, a
 * port already taken moves to the next free number (the served configuration says where each really listens).
 */
function distinctPorts(ports: readonly number[]): number[] {
  const used = new Set<number>();
  return ports.map((p) => {
    let port = p;
    while (used.has(port)) port++;
    used.add(port);
    return port;
  });
}

/** The SQL endpoint's password: the file's first line (a password never goes on a command line, where ps shows it). */
function readPassword(file: string, command: Command): string {
  try {
    return readFileSync(file, 'utf8').split(/\r?\n/)[0] ?? '';
  } catch (err) {
    command.error(`error: ${file}: ${(err as Error).message}`, { exitCode: 2 });
  }
}

/** config.ini → configuration; its mistakes are usage errors that name the line. */
function readConfigIni(file: string, command: Command): ClusterConfig {
  try {
    return parseConfigIni(readFileSync(file, 'utf8'));
  } catch (err) {
    if (err instanceof ConfigIniError || (err as NodeJS.ErrnoException).code !== undefined) command.error(`error: ${file}: ${(err as Error).message}`, { exitCode: 2 });
    throw err;
  }
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
    .option('--version <release>', `the NDB release the management servers and SQL node play (version strings, commands and ndbinfo tables that differ): major.minor.build, or a family: ${[...SIM_RELEASES].map(([f, r]) => `${f}.x = ${r}`).join(', ')}`, releaseName, SIM_RELEASES.get('8.4'))
    .option('--speed <x>', 'time acceleration (2 = twice as fast)', positiveNumber, 1)
    .option('--seed <n>', 'seed of the load jitter', intOption(0, 2 ** 31 - 1), 1)
    .option('--mark-url <url>', 'benchmark scenarios mark their runs on this serving ndbtop (POST /api/runs)')
    .option('--token <token>', 'the --token of --mark-url')
    .option('--list-scenarios', 'list the scenarios and exit')
    .option('--tls-search-path <dirs>', "serve `start tls` with the management server key and certificate found here (NDB's file names)")
    .option('--require-tls', 'refuse every command but the bootstrap ones on clear-text sessions, as ndb_mgmd with TLS required')
    .option('--make-certs <dir>', "create a cluster CA and node keys and certificates under NDB's file names in DIR, and exit")
    .option('--config <file>', "a cluster's config.ini: its nodes, hosts, node groups, NoOfReplicas and memory sizes replace --data-nodes/--replicas/--mgm-nodes/--api-nodes; each management server listens on its PortNumber unless --port is given")
    .option('--sql-port <port>', "also serve a SQL node's ndbinfo on this port (MySQL protocol; 0 = any free port)", intOption(0, 65535))
    .option('--sql-user <name>', 'the SQL endpoint\'s user', 'root')
    .option('--sql-password-file <file>', "the SQL endpoint's password, the file's first line (default: none)")
    .action(async (opts: SimOpts, command: Command) => {
      if (opts.listScenarios) {
        for (const s of SCENARIOS) process.stdout.write(`${s.name.padEnd(16)} ${s.description}\n`);
        return;
      }
      if (opts.makeCerts !== undefined) {
        const made = await makeCerts(opts.makeCerts);
        process.stdout.write(`created in ${made.dir}: ${made.files.join(' ')}\n`);
        return;
      }
      if (opts.requireTls && opts.tlsSearchPath === undefined) command.error('error: --require-tls needs --tls-search-path', { exitCode: 2 });
      const config = opts.config === undefined ? undefined : readConfigIni(opts.config, command);
      const mgmNodes = config ? config.nodes.filter((n) => n.type === 'MGM') : null;
      const explicitPort = command.getOptionValueSource('port') === 'cli';
      const ports =
        opts.port === 0 ? [] : mgmNodes && !explicitPort ? distinctPorts(mgmNodes.map((m) => Number(m.params['PortNumber'] ?? 1186))) : Array.from({ length: mgmNodes?.length ?? opts.mgmNodes }, (_, i) => opts.port + i);
      const sql = opts.sqlPort === undefined ? undefined : { port: opts.sqlPort, user: opts.sqlUser, password: opts.sqlPasswordFile === undefined ? '' : readPassword(opts.sqlPasswordFile, command) };
      const { startSqlSimulator } = await import('../../../ndbinfo/sim/index.js');
      const sim = await startSqlSimulator({
        ...(sql ? { sql } : {}),
        ...(config ? { config } : {}),
        host: opts.host,
        ports,
        dataNodes: opts.dataNodes,
        replicas: opts.replicas,
        mgmNodes: opts.mgmNodes,
        apiNodes: opts.apiNodes,
        scenario: opts.scenario,
        version: opts.version,
        speed: opts.speed,
        seed: opts.seed,
        waitForMarker: opts.markUrl !== undefined,
        ...(opts.tlsSearchPath !== undefined ? { tls: { searchPath: opts.tlsSearchPath, require: opts.requireTls === true } } : {}),
      }).catch((err: unknown) => {
        // A configuration the simulator cannot model (node groups not of NoOfReplicas nodes, three mgmds) is the user's to fix.
        if (config && err instanceof RangeError) command.error(`error: ${opts.config}: ${err.message}`, { exitCode: 2 });
        throw err;
      });
      const shape = config ? `${sim.model.data.size} data nodes from ${opts.config}` : `${opts.dataNodes} data nodes`;
      const keys = sim.mgmds.every((m) => m.tls);
      const tls =
        opts.tlsSearchPath === undefined
          ? 'no TLS'
          : !keys
            ? `no TLS keys found in ${opts.tlsSearchPath} (start tls answers Failed; sim --make-certs DIR makes them)`
            : opts.requireTls
              ? 'TLS required'
              : 'TLS offered';
      if (opts.markUrl) sim.marks.attach(httpRunMarker(opts.token ? { url: opts.markUrl, token: opts.token } : { url: opts.markUrl }));
      process.stdout.write(`ndbtop sim: scenario ${opts.scenario}, ${shape}, NDB ${opts.version}, speed ${opts.speed}, ${tls}\n`);
      process.stdout.write(`connectstring: ${sim.connectstring}\n`);
      if (sim.sql) process.stdout.write(`ndbinfo: ${sim.sql.url}\n`);
      await new Promise<void>((resolve) => {
        const stop = (): void => void sim.close().then(resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
