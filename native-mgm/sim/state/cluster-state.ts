import type { SimClock } from './sim-clock.js';
import type { SimEvent } from './sim-event.js';
import type { Topology } from './topology.js';
import { inCluster, type ApiNode, type DataNode, type DataNodeStatus, type MgmNode } from './node-state.js';

type Listener<T> = (value: T) => void;

/**
 * The simulated cluster's state and the single place where it changes. Lifecycles, operator commands and
 * scenarios call the mutators here; the server and the statistics engine listen.
 */
export class ClusterState {
  readonly data = new Map<number, DataNode>();
  readonly mgm = new Map<number, MgmNode>();
  readonly api = new Map<number, ApiNode>();
  readonly replicas: number;
  readonly version: number;
  /** API node granted single user mode, once the cluster has entered it. */
  singleUserApi: number | null = null;
  /** Tests: data nodes whose next start stops after this phase until released (a restart that never completes). */
  readonly stalledStarts = new Map<number, number>();
  /**
   * Tests: commands every management server carries out but never answers (the session stays open), as a server
   * whose reply to a slow command (spec §4.13) is lost on the way.
   */
  readonly withheldReplies = new Set<string>();
  /**
   * Tests: while set, every management server answers each command but the bootstrap ones (spec §4.0, auth "B")
   * with these words and an empty line instead of its reply, as a server still starting (waiting for arbitrator
   * selection, say) answers with a reply of its own. The spec gives no such text: the tests choose it.
   */
  startingReply: string | null = null;
  /** Tests: the arbitrator went away and none was chosen since (`lifecycle/arbitration.ts`). */
  arbitratorLost = false;
  private restartHook: ((ids: readonly number[]) => void) | null = null;
  private dynamicCounter = 0;
  private readonly eventListeners = new Set<Listener<SimEvent>>();
  private readonly statusListeners = new Set<Listener<DataNode>>();

  constructor(
    topology: Topology,
    readonly clock: SimClock,
  ) {
    this.replicas = topology.replicas;
    this.version = topology.version;
    for (const m of topology.mgm) this.mgm.set(m.id, { ...m, version: topology.version, running: true });
    for (const d of topology.data) {
      this.dynamicCounter += 1;
      this.data.set(d.id, {
        ...d,
        version: topology.version,
        status: 'STARTED',
        startPhase: 0,
        dynamicId: this.dynamicCounter,
        connectCount: 1,
        initialPending: false,
        generation: 0,
      });
    }
    for (const a of topology.api) this.api.set(a.id, { id: a.id, address: a.address, version: topology.version, connected: a.connected });
  }

  /**
   * Tests: `fn` runs once, when the next restart command arrives and before the server checks it, so a test can
   * change the cluster between a client's check and the server's (a partner failing just then, say).
   */
  onNextRestart(fn: (ids: readonly number[]) => void): void {
    this.restartHook = fn;
  }

  takeRestartHook(): ((ids: readonly number[]) => void) | null {
    const hook = this.restartHook;
    this.restartHook = null;
    return hook;
  }

  onEvent(fn: Listener<SimEvent>): () => void {
    this.eventListeners.add(fn);
    return () => this.eventListeners.delete(fn);
  }

  onStatusChange(fn: Listener<DataNode>): () => void {
    this.statusListeners.add(fn);
    return () => this.statusListeners.delete(fn);
  }

  emit(...events: SimEvent[]): void {
    for (const e of events) for (const fn of this.eventListeners) fn(e);
  }

  /** Events a management server makes about its own links go out once per running mgmd, from that mgmd. */
  emitFromEachMgmd(make: (mgmdId: number) => SimEvent): void {
    for (const m of this.mgm.values()) if (m.running) this.emit(make(m.id));
  }

  dataNode(id: number): DataNode {
    const node = this.data.get(id);
    if (!node) throw new RangeError(`node ${id} is not a data node`);
    return node;
  }

  setStatus(node: DataNode, status: DataNodeStatus, startPhase = 0): void {
    node.status = status;
    node.startPhase = startPhase;
    if (status === 'NO_CONTACT' || status === 'NOT_STARTED') node.dynamicId = 0;
    for (const fn of this.statusListeners) fn(node);
  }

  /** Joins the heartbeat ring at the end; the ring counter restarts when the whole cluster was down. */
  register(node: DataNode): void {
    if (![...this.data.values()].some(inCluster)) this.dynamicCounter = 0;
    this.dynamicCounter += 1;
    node.dynamicId = this.dynamicCounter;
  }

  /** The president: the live node that has been in the ring longest. */
  master(): DataNode | undefined {
    let best: DataNode | undefined;
    for (const n of this.data.values()) if (inCluster(n) && (!best || n.dynamicId < best.dynamicId)) best = n;
    return best;
  }

  liveDataNodes(): DataNode[] {
    return [...this.data.values()].filter(inCluster);
  }

  /** API slots are answered by a started data node; with none, their state is UNKNOWN (spec §5.3). */
  anyDataNodeStarted(): boolean {
    return [...this.data.values()].some((n) => n.status === 'STARTED');
  }

  nodeGroupMembers(group: number): DataNode[] {
    return [...this.data.values()].filter((n) => n.nodeGroup === group);
  }

  /** The management server that acts as arbitrator: the first one running. */
  arbitrator(): number {
    if (this.arbitratorLost) return 0;
    return [...this.mgm.values()].find((m) => m.running)?.id ?? 0;
  }
}
