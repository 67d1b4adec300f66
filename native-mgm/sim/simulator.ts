import { formatHostPort } from '../errors.js';
import { ClusterModel } from './cluster-model.js';
import { TIMINGS } from './lifecycle/timings.js';
import { makeEvent } from './state/sim-event.js';
import { MgmdServer } from './mgmd-server.js';
import { derivePrng } from './state/prng.js';
import { scenario as scenarioByName, type ScenarioName } from './scenarios/index.js';
import { RunMarks } from './run-marks.js';
import { SimClock } from './state/sim-clock.js';
import { buildTopology, type Topology } from './state/topology.js';
import type { BlockInstances, ClusterConfig } from '../config/index.js';
import { configFromTopology, SIM_INSTANCES, simInstances } from './config/sim-config.js';
import { topologyFromConfig } from './config/topology-from-config.js';
import type { WriteMode } from './wire/output-queue.js';
import type { SimTlsOptions } from './tls/server-tls.js';

export interface SimulatorOptions {
  host?: string;
  /** One per management server; missing or 0 = ephemeral. */
  ports?: number[];
  dataNodes?: number;
  replicas?: number;
  mgmNodes?: number;
  apiNodes?: number;
  connectedApiNodes?: number;
  /** DBTC and DBLQH instances per data node, named in the served configuration's ThreadConfig (default 4 and 4). */
  tcInstances?: number;
  lqhInstances?: number;
  version?: string;
  scenario?: ScenarioName;
  /** Sim milliseconds per real millisecond: lifecycles and statistics speed up, PINGs do not. */
  speed?: number;
  seed?: number;
  writeMode?: WriteMode;
  /** Records (and PINGs) that happen in the same tick go out in one write, per listener. */
  coalesceEvents?: boolean;
  /**
   * The scenario begins when a client first reads `get status` instead of at once: a watcher that takes a moment to
   * connect (a loaded machine, a slow start) still sees its story from the beginning (a restart already under way
   * when it first looks is rightly a degraded group it cannot explain). The embedded simulator of the app does this.
   */
  startWhenWatched?: boolean;
  /** Benchmark scenarios wait for a run marker to be attached (`marks.attach`) before each run. */
  waitForMarker?: boolean;
  /** Time for each request line, 30 s as the server's (spec §14.2); tests shorten it. */
  lineTimeoutMs?: number;
  /** Keys for `start tls`, and whether clear-text sessions are refused (spec §9). */
  tls?: SimTlsOptions;
  /** A real cluster's configuration (`sim --config`): its shape replaces dataNodes/replicas/mgmNodes/apiNodes. */
  config?: ClusterConfig;
}

export interface MgmdInfo {
  nodeId: number;
  host: string;
  port: number;
  running: boolean;
  /** Whether it has TLS keys (`start tls` answers Ok). */
  tls: boolean;
}

export interface Simulator {
  readonly mgmds: ReadonlyArray<MgmdInfo>;
  /** All management servers, in node id order, as a connect string. */
  readonly connectstring: string;
  readonly model: ClusterModel;
  stopMgmd(nodeId: number): Promise<void>;
  startMgmd(nodeId: number): Promise<void>;
  /** Where the benchmark scenarios' drivers mark their runs. */
  readonly marks: RunMarks;
  close(): Promise<void>;
}

/** Lets a command's reply go out before its own server goes away. */
const SELF_STOP_DELAY_MS = 20;

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const host = options.host ?? '127.0.0.1';
  const seed = options.seed ?? 1;
  const topology = options.config ? topologyFromConfig(options.config, options.version) : buildTopology(options);
  const clock = new SimClock(options.speed ?? 1);
  const own = { tc: options.tcInstances ?? SIM_INSTANCES.tc, lqh: options.lqhInstances ?? SIM_INSTANCES.lqh };
  const model = new ClusterModel(topology, clock, { instances: simInstances(options.config, own), seed });
  // What the data nodes do inside is for ndbinfo alone: the SQL endpoint's first read (or a scenario's) wakes it.
  model.activity.sleepUntilRead();
  const chosen = scenarioByName(options.scenario ?? 'idle');
  const unmet = chosen.requires?.(model) ?? null;
  if (unmet) {
    clock.dispose();
    throw new RangeError(unmet);
  }

  const servers = new Map(
    topology.mgm.map((m, i) => [
      m.id,
      new MgmdServer({
        nodeId: m.id,
        host,
        port: options.ports?.[i] ?? 0,
        model,
        writeMode: options.writeMode ?? 'whole',
        coalesceEvents: options.coalesceEvents ?? true,
        prng: derivePrng(seed, 2, m.id),
        ...(options.tls ? { tls: options.tls } : {}),
        ...(options.lineTimeoutMs !== undefined ? { lineTimeoutMs: options.lineTimeoutMs } : {}),
      }),
    ]),
  );
  const server = (id: number): MgmdServer => {
    const s = servers.get(id);
    if (!s) throw new RangeError(`node ${id} is not a management node`);
    return s;
  };

  const stopMgmd = async (id: number): Promise<void> => {
    const s = server(id);
    if (!s.running) return;
    const mgm = model.mgm.get(id);
    if (mgm) mgm.running = false;
    await s.stop();
    model.emitFromEachMgmd((other) => makeEvent('Disconnected', other, { node: id }, other));
  };
  const startMgmd = async (id: number): Promise<void> => {
    const s = server(id);
    if (s.running) return;
    await s.start();
    model.emitFromEachMgmd((other) => makeEvent('Connected', other, { node: id }, other));
    const mgm = model.mgm.get(id);
    if (mgm) mgm.running = true;
  };

  model.onEvent((event) => {
    for (const s of servers.values()) s.deliver(event);
  });
  model.attachMgmdControl({
    scheduleStop: (id) => clock.afterReal(SELF_STOP_DELAY_MS, () => void stopMgmd(id)),
    scheduleRestart: (id) =>
      clock.afterReal(SELF_STOP_DELAY_MS, () => {
        void stopMgmd(id).then(() => clock.after(TIMINGS.mgmdRestart, () => void startMgmd(id)));
      }),
  });

  try {
    for (const s of servers.values()) await s.start();
  } catch (err) {
    await Promise.all([...servers.values()].map((s) => s.stop()));
    clock.dispose();
    throw err;
  }
  model.serveConfig(() => servedConfig(options.config, topology, servers, own));
  const marks = new RunMarks(options.waitForMarker ?? false);
  const run = (): void => void chosen.run({ model, clock, marks, stopMgmd, startMgmd });
  if (options.startWhenWatched) void model.watched.then(run);
  else run();

  return {
    get mgmds() {
      return [...servers.values()].map((s) => ({ nodeId: s.nodeId, host: s.host, port: s.port, running: s.running, tls: s.tlsAvailable }));
    },
    get connectstring() {
      return [...servers.values()].map((s) => formatHostPort(s.host, s.port)).join(',');
    },
    model,
    stopMgmd,
    startMgmd,
    marks,
    async close() {
      clock.dispose();
      await Promise.all([...servers.values()].map((s) => s.stop()));
    },
  };
}

/** The configuration `get config` answers with: the given one or the topology's, with the ports really listened on. */
function servedConfig(given: ClusterConfig | undefined, topology: Topology, servers: ReadonlyMap<number, MgmdServer>, instances: BlockInstances): ClusterConfig {
  const listening = new Map([...servers].map(([id, s]) => [id, { host: s.host, port: s.port }]));
  if (!given) return configFromTopology(topology, listening, instances);
  return {
    ...given,
    nodes: given.nodes.map((n) => (n.type === 'MGM' && listening.has(n.nodeId) ? { ...n, params: { ...n.params, PortNumber: listening.get(n.nodeId)!.port } } : n)),
  };
}
