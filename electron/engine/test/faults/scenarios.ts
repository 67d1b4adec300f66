import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../../../../native-mgm/sim/index.js';
import { createEngine } from '../../create-engine.js';
import type { Engine } from '../../engine.js';
import { readRecording } from '../../recording/recording-reader.js';
import type { TrackerInput } from '../../cluster/tracker-input.js';
import { waitFor } from '../helpers.js';
import { markerOf, Markers } from './markers.js';
import { ConnectionProbe, type Seen } from './probe.js';
import { freePort } from '../../../../native-mgm/test/free-port.js';
import { SimProcess } from './sim-process.js';
import { watchConnections } from './socket-count.js';
import { StallProxy } from './stall-proxy.js';

export interface FaultOptions {
  /** How long the frozen server stays stopped. */
  freezeMs: number;
  /** How long a killed server stays away before it comes back. */
  outageMs: number;
  /** How long any awaited change may take before the run fails (generous: shared, loaded machines). */
  deadlineMs: number;
}

export interface Phase {
  label: string;
  /** From the fault (or the heal) to the first pushed state showing it. */
  ms: number;
  state: Seen;
}

export interface FaultReport {
  name: string;
  phases: Phase[];
  maxConnections: number;
  /** The connections when the count peaked (`localPort->remotePort state`), to tell a leak from a race. */
  connectionsAtMax: string[];
  allowedConnections: number;
  /** Markers sent while the cluster was reachable and the links live: each must be recorded exactly once. */
  liveMarkers: number[];
  /** Marker number → how often the recording has it. */
  recorded: Map<number, number>;
  recordingProblems: number;
}

/** The monitor's two long-lived sessions (commands, events); an action would add a short-lived third. */
const ALLOWED_CONNECTIONS = 2;

/** One engine watching `connectstring` with a recording, a connection probe, markers and a connection counter. */
class Run {
  readonly probe: ConnectionProbe;
  readonly markers = new Markers();
  readonly phases: Phase[] = [];
  readonly liveMarkers: number[] = [];
  private readonly seenMarkers = new Map<number, number>();
  private readonly connections;

  private constructor(
    readonly engine: Engine,
    private readonly dir: string,
    readonly recordFile: string,
    dialedPorts: readonly number[],
    private readonly deadlineMs: number,
  ) {
    this.probe = new ConnectionProbe(engine);
    this.connections = watchConnections(() => dialedPorts, this.markers.localPorts, () => this.markers.connecting > 0);
    // Counts markers as the engine takes them in; the recording is checked against these at the end.
    const feed = engine.feed.bind(engine);
    engine.feed = (id: string, input: TrackerInput) => {
      if (input.kind === 'event') {
        const n = markerOf(input.event);
        if (n !== null) this.seenMarkers.set(n, (this.seenMarkers.get(n) ?? 0) + 1);
      }
      feed(id, input);
    };
  }

  static async open(connectstring: string, dialedPorts: readonly number[], deadlineMs: number): Promise<Run> {
    const dir = mkdtempSync(join(tmpdir(), 'ndbtop-faults-'));
    const recordFile = join(dir, 'faults.ndbrec');
    const engine = (await createEngine({ host: 'serve', clusters: [{ name: 'faults', connectstring }], simulator: false, recordFile })) as unknown as Engine;
    const run = new Run(engine, dir, recordFile, dialedPorts, deadlineMs);
    await run.probe.recovered(0, deadlineMs);
    return run;
  }

  /** Sends `count` markers to `ports` and waits until the engine has each (so they were sent while live). */
  async liveMarkersTo(ports: readonly number[], count = 3): Promise<void> {
    for (let i = 0; i < count; i++) {
      const n = await this.markers.send(ports);
      if (n === null) throw new Error('no management server took the marker');
      this.liveMarkers.push(n);
      await waitFor(`marker ${n} at the engine`, () => this.seenMarkers.has(n), this.deadlineMs);
    }
  }

  async detect(label: string, since: number, match?: (s: Seen) => boolean): Promise<Seen> {
    const state = await this.probe.detected(since, this.deadlineMs, match);
    this.phases.push({ label, ms: state.at - since, state });
    return state;
  }

  async recover(label: string, since: number, match?: (s: Seen) => boolean): Promise<Seen> {
    const state = await this.probe.recovered(since, this.deadlineMs, match);
    this.phases.push({ label, ms: Math.max(0, state.at - since), state });
    return state;
  }

  /**
   * How long the event stream took to join the command session on `mgmdNodeId` (issue 12: within the PING budget,
   * 3 s): from the first state after `since` with the command session there to the first with the stream live too.
   */
  followed(label: string, since: number, mgmdNodeId: number): void {
    const command = this.probe.first(since, (s) => s.mgmdNodeId === mgmdNodeId);
    const joined = this.probe.first(since, (s) => s.mgmdNodeId === mgmdNodeId && s.events === 'live');
    if (!command || !joined) throw new Error(`${label}: the command session and the stream were never both on mgmd ${mgmdNodeId}`);
    this.phases.push({ label, ms: Math.max(0, joined.at - command.at), state: joined });
  }

  async finish(name: string): Promise<FaultReport> {
    const maxConnections = this.connections.stop();
    this.probe.close();
    await this.engine.close();
    const recording = await readRecording(this.recordFile);
    rmSync(this.dir, { recursive: true, force: true });
    const recorded = new Map<number, number>();
    for (const line of recording.lines) {
      const n = line.kind === 'event' ? markerOf(line.event) : null;
      if (n !== null) recorded.set(n, (recorded.get(n) ?? 0) + 1);
    }
    return { name, phases: this.phases, maxConnections, connectionsAtMax: this.connections.atMax, allowedConnections: ALLOWED_CONNECTIONS, liveMarkers: this.liveMarkers, recorded, recordingProblems: recording.problems.length };
  }

  abort(): Promise<void> {
    this.connections.stop();
    this.probe.close();
    rmSync(this.dir, { recursive: true, force: true });
    return this.engine.close();
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function withRun(connectstring: string, ports: readonly number[], o: FaultOptions, body: (run: Run) => Promise<void>, name: string): Promise<FaultReport> {
  const run = await Run.open(connectstring, ports, o.deadlineMs);
  try {
    await body(run);
  } catch (err) {
    const states = run.probe.seen.map((s) => `${s.at % 100_000} ${s.status}/${s.events} ${s.lastError ?? ''}`).join('\n  ');
    await run.abort();
    throw new Error(`${err instanceof Error ? err.message : String(err)}; states seen:\n  ${states}`, { cause: err });
  }
  return run.finish(name);
}

/** A run watching a simulator in a process of its own (so it can be stopped or killed), markers sent to it. */
async function withSimProcessRun(o: FaultOptions, name: string, body: (run: Run, sim: SimProcess) => Promise<void>): Promise<FaultReport> {
  const sim = new SimProcess(await freePort());
  await sim.start();
  try {
    return await withRun(sim.connectstring, [sim.port], o, async (run) => {
      await run.liveMarkersTo([sim.port]);
      await body(run, sim);
      await run.liveMarkersTo([sim.port]);
    }, name);
  } finally {
    await sim.kill();
  }
}

/** ndb_mgmd stopped with SIGSTOP: sockets stay open, nothing answers, the kernel still accepts new connections. */
export function frozenServer(o: FaultOptions): Promise<FaultReport> {
  return withSimProcessRun(o, `mgmd frozen ${o.freezeMs / 1000} s (SIGSTOP), then resumed`, async (run, sim) => {
    const t0 = Date.now();
    sim.freeze();
    await run.detect('frozen: detected', t0);
    await sleep(Math.max(0, t0 + o.freezeMs - Date.now()));
    const healed = Date.now();
    sim.thaw();
    await run.recover('resumed: both links live', healed);
  });
}

/** ndb_mgmd killed with SIGKILL and started again on the same port. */
export function killedAndRestarted(o: FaultOptions): Promise<FaultReport> {
  return withSimProcessRun(o, 'mgmd killed (SIGKILL) and restarted on the same port', async (run, sim) => {
    const t0 = Date.now();
    await sim.kill();
    await run.detect('killed: detected', t0);
    await sleep(o.outageMs);
    await sim.start();
    const healed = Date.now();
    await run.recover('restarted: both links live', healed);
  });
}

/** Two mgmds: the first is killed (failover to the second), then the second while the first is still down, then the first returns. */
export async function bothMgmdsLost(o: FaultOptions): Promise<FaultReport> {
  const sim = await startSimulator({ scenario: 'steady', dataNodes: 4, mgmNodes: 2 });
  const ports = sim.mgmds.map((m) => m.port);
  try {
    return await withRun(sim.connectstring, ports, o, async (run) => {
      await run.liveMarkersTo(ports);
      const t0 = Date.now();
      await sim.stopMgmd(1);
      await run.detect('mgmd 1 down: detected', t0);
      await run.recover('failed over: both links live on mgmd 2', t0, (s) => s.status === 'failed-over' && s.events === 'live' && s.mgmdNodeId === 2);
      run.followed('event stream follows the command to mgmd 2', t0, 2);
      await run.liveMarkersTo(ports);
      const t1 = Date.now();
      await sim.stopMgmd(2);
      await run.detect('mgmd 2 down too: detected', t1, (s) => s.status === 'reconnecting' || s.status === 'offline');
      await sleep(o.outageMs);
      const healed = Date.now();
      await sim.startMgmd(1);
      await run.recover('mgmd 1 back: both links live on it', healed, (s) => s.status === 'live' && s.events === 'live' && s.mgmdNodeId === 1);
      // Both links waited out growing backoffs here: the stream joins at once only because it follows the command.
      run.followed('event stream follows the command to mgmd 1', healed, 1);
      await run.liveMarkersTo(ports);
    }, 'second mgmd killed while the first is down, then the first returns');
  } finally {
    await sim.close();
  }
}

/** A run watching a simulator through a StallProxy, which the body can stall; markers go to the simulator itself. */
async function withProxiedRun(o: FaultOptions, name: string, body: (run: Run, proxy: StallProxy, upstream: number) => Promise<void>): Promise<FaultReport> {
  const sim = await startSimulator({ scenario: 'steady', dataNodes: 4 });
  const upstream = sim.mgmds[0]?.port ?? 0;
  const proxy = new StallProxy(upstream);
  await proxy.start();
  try {
    return await withRun(`127.0.0.1:${proxy.port}`, [proxy.port], o, (run) => body(run, proxy, upstream), name);
  } finally {
    await proxy.close();
    await sim.close();
  }
}

/** The network path stops half-way through a `get status` reply: the command session hangs, nothing is closed. */
export function stalledStatusReply(o: FaultOptions): Promise<FaultReport> {
  return withProxiedRun(o, 'network path stalled half-way through a get status reply', async (run, proxy, upstream) => {
    await run.liveMarkersTo([upstream]);
    await proxy.stallReplyContaining('node.3.');
    const t0 = Date.now();
    await run.detect('status reply stalled: detected', t0, (s) => s.status !== 'live');
    // Live again, on the same server or, through a management server the configuration names, failed over to it.
    await run.recover('command session live again (since the stall)', t0);
    await run.liveMarkersTo([upstream]);
  });
}

/** The event session stops delivering (no records, no PINGs) while the command session goes on answering. */
export function silentEventStream(o: FaultOptions): Promise<FaultReport> {
  return withProxiedRun(o, 'event stream silent while the command session lives', async (run, proxy, upstream) => {
    await run.liveMarkersTo([upstream]);
    if (!proxy.silenceEventSession()) throw new Error('no event session to silence');
    const t0 = Date.now();
    await run.detect('event stream silent: detected', t0, (s) => s.events !== 'live');
    await run.recover('event stream live again (since the silence)', t0);
    await run.liveMarkersTo([upstream]);
  });
}

export const FAULTS = { frozenServer, killedAndRestarted, bothMgmdsLost, stalledStatusReply, silentEventStream } as const;

/** One line per phase, as the fault script and the tests print them. */
export function describe(r: FaultReport): string {
  const phases = r.phases.map((p) => `  ${p.label.padEnd(44)} ${String(p.ms).padStart(6)} ms  (${p.state.status}/${p.state.events}${p.state.lastError ? `: ${p.state.lastError}` : ''})`);
  const dup = [...r.recorded.values()].filter((c) => c > 1).length;
  const lost = r.liveMarkers.filter((n) => !r.recorded.has(n)).length;
  return [`${r.name}`, ...phases, `  connections at most ${r.maxConnections} (allowed ${r.allowedConnections}${r.maxConnections > r.allowedConnections ? `; at the peak: ${r.connectionsAtMax.join(', ')}` : ''}); markers sent while live ${r.liveMarkers.length}, lost ${lost}, duplicated ${dup}`].join('\n');
}
