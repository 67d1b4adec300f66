import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MgmClient } from '../../../../../native-mgm/client/mgm-client.js';
import { EVENT_TYPES_BY_NAME, resolveConnectstring, type NodeState } from '../../../../../native-mgm/index.js';
import type { Simulator } from '../../../../../native-mgm/sim/index.js';
import { nodeGroups } from '../../../cluster/node-groups.js';
import { RollingConductor } from '../execution/conductor.js';
import { initialMachine } from '../execution/executor.js';
import { MgmClusterPort } from '../ports/mgm-cluster-port.js';
import { readPlanInputs } from '../ports/mgm-plan-inputs.js';
import { PlanStore } from '../plan/plan-store.js';
import type { ClusterPort, RestartOutcome } from '../ports/ports.js';
import { planRollingRestart, DEFAULT_LIMITS } from '../plan/planner.js';
import type { PlanLimits, RestartOrder, RollEvent } from '../types.js';

const STOP_STARTED = EVENT_TYPES_BY_NAME.get('NDBStopStarted')?.id;

/**
 * What the test sees of the cluster on its own: every NDBStopStarted the simulator emits (a restart begins with
 * it), and `get status` polled on a connection of its own, never through the conductor.
 */
export class ClusterWitness {
  readonly stops = new Map<number, number>();
  readonly seenDown = new Set<number>();
  readonly groupsWithoutLiveNode: string[] = [];
  private readonly client: MgmClient;
  private timer: NodeJS.Timeout | null = null;
  private readonly off: () => void;

  constructor(sim: Simulator) {
    this.off = sim.model.onEvent((e) => {
      if (e.type === STOP_STARTED) this.stops.set(e.source, (this.stops.get(e.source) ?? 0) + 1);
    });
    this.client = new MgmClient({ connectstring: sim.connectstring, reconnect: true, requestTimeoutMs: 2000 });
    const poll = async (): Promise<void> => {
      try {
        this.record(await this.client.getStatus(['NDB']));
      } catch {
        // A management server failing over: the next poll finds the other one.
      }
      if (this.timer !== null) this.timer = setTimeout(() => void poll(), 40);
    };
    this.timer = setTimeout(() => void poll(), 0);
  }

  private record(nodes: NodeState[]): void {
    for (const n of nodes) if (n.status !== 'STARTED') this.seenDown.add(n.nodeId);
    const groups = new Map<number, number>();
    const members = nodes.map((n) => {
      if (typeof n.nodeGroup === 'number') groups.set(n.nodeId, n.nodeGroup);
      return { nodeId: n.nodeId, status: n.status, nodeGroup: n.nodeGroup ?? groups.get(n.nodeId) ?? null };
    });
    for (const g of nodeGroups(members)) if (g.health === 'OFFLINE') this.groupsWithoutLiveNode.push(`node group ${g.nodeGroup} at ${new Date().toISOString()}`);
  }

  stopCount(id: number): number {
    return this.stops.get(id) ?? 0;
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.off();
    this.client.close();
  }
}

export interface ConductorRun {
  conductor: RollingConductor;
  events: RollEvent[];
  /** What became of each restart the conductor sent, in order. */
  restarts: Array<Promise<RestartOutcome>>;
  store: PlanStore;
  port: MgmClusterPort;
  close(): void;
}

/** A plan for the whole cluster (or `chosen`) and a conductor over MgmClient, as the CLI makes them. */
export async function conductOn(sim: Simulator, options: { order?: RestartOrder; pauseMs?: number; limits?: Partial<PlanLimits>; chosen?: number[] } = {}): Promise<ConductorRun> {
  const client = new MgmClient({ connectstring: sim.connectstring, reconnect: false });
  const { cluster, ...inputs } = await client.connect().then(() => readPlanInputs(client));
  client.close();
  const out = planRollingRestart({
    id: 'test',
    cluster: sim.connectstring,
    createdAt: Date.now(),
    ...inputs,
    ...(options.chosen ? { chosen: options.chosen } : {}),
    order: options.order ?? 'node-group',
    pauseMs: options.pauseMs ?? 0,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    // The management protocol has no redo fill (ndbinfo does): the other NDB checks are made, that one said unchecked.
    checks: { allowUnchecked: true },
  });
  if (!out.ok) throw new Error(out.reasons.join('; '));
  const dir = mkdtempSync(join(tmpdir(), 'ndbtop-rolling-'));
  const store = new PlanStore(join(dir, 'plan.json'), cluster);
  const port = new MgmClusterPort({ hosts: resolveConnectstring({ explicit: sim.connectstring }).hosts, connectTimeoutMs: 10_000, requestTimeoutMs: 10_000, arbitration: inputs.arbitration });
  const restarts: Array<Promise<RestartOutcome>> = [];
  const watched: ClusterPort = {
    observe: () => port.observe(),
    restart: (nodeIds, bounds) => {
      const outcome = port.restart(nodeIds, bounds);
      restarts.push(outcome);
      return outcome;
    },
  };
  const conductor = new RollingConductor(initialMachine(out.plan), { port: watched, pollIntervalMs: 50, sink: { persist: (m, h) => store.save({ machine: m, history: [...h] }) } });
  const events: RollEvent[] = [];
  conductor.onEvent((e) => events.push(e));
  return {
    conductor,
    events,
    restarts,
    store,
    port,
    close() {
      conductor.close();
      port.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves at the first event `pick` accepts (looking at those already seen first). */
export function nextEvent(run: ConductorRun, pick: (e: RollEvent) => boolean, timeoutMs = 30_000): Promise<RollEvent> {
  const seen = run.events.find(pick);
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no such event within ${timeoutMs} ms; seen: ${JSON.stringify(run.events)}`)), timeoutMs);
    const off = run.conductor.onEvent((e) => {
      if (!pick(e)) return;
      clearTimeout(timer);
      off();
      resolve(e);
    });
  });
}
