import { ClusterActivity } from './activity/cluster-activity.js';
import { redoStatusEvents } from './activity/redo-status.js';
import { BackupCoordinator } from './operations/backup.js';
import { ClusterState } from './state/cluster-state.js';
import { failDataNode, type FailureOptions } from './lifecycle/failure.js';
import { splitNetwork, type SplitOptions } from './lifecycle/partition.js';
import { namedProfile, type LoadProfile, type LoadProfileName, type LoadRates } from './workload/load-profile.js';
import { MemoryModel } from './workload/memory.js';
import type { OperationResult } from './operations/mgm-errors.js';
import {
  restartAll,
  restartNodes,
  startAll,
  startCluster,
  startNode,
  stopAll,
  stopNodes,
  type MgmdControl,
  type OperationContext,
  type RestartFlags,
} from './operations/node-operations.js';
import { derivePrng, type Prng } from './state/prng.js';
import type { SimClock } from './state/sim-clock.js';
import { enterSingleUser, exitSingleUser } from './operations/single-user.js';
import { StatisticsEngine, type StatisticsOptions } from './workload/statistics.js';
import type { Topology } from './state/topology.js';
import type { DataNode } from './state/node-state.js';
import type { ClusterConfig } from '../config/index.js';
import { NodeIdReservations } from './config/node-ids.js';

const NO_MGMD_CONTROL: MgmdControl = { scheduleStop: () => undefined, scheduleRestart: () => undefined };

/**
 * The cluster plus everything that drives it: statistics, memory, backups, and the operations that operator
 * commands, scenarios and tests use. Each operation behaves as the protocol command of the same name.
 */
export class ClusterModel extends ClusterState {
  readonly statistics: StatisticsEngine;
  readonly memory: MemoryModel;
  readonly backups: BackupCoordinator;
  /** Inside the data nodes (threads, CPU, redo, transporters, restarts): what the simulator's ndbinfo shows. */
  readonly activity: ClusterActivity;
  private served: ClusterConfig | null = null;
  private makeConfig: (() => ClusterConfig) | null = null;
  readonly nodeIds = new NodeIdReservations();
  private readonly prng: Prng;
  private mgmdControl: MgmdControl = NO_MGMD_CONTROL;
  private markWatched: () => void = () => undefined;
  /** Resolves when a client first reads `get status` from any management server: someone is watching. */
  readonly watched = new Promise<void>((resolve) => (this.markWatched = resolve));

  constructor(topology: Topology, clock: SimClock, options: StatisticsOptions) {
    super(topology, clock);
    this.prng = derivePrng(options.seed, 1);
    this.statistics = new StatisticsEngine(this, options);
    this.memory = new MemoryModel(this, () => this.statistics.rates(), options.seed);
    this.backups = new BackupCoordinator(this);
    this.activity = new ClusterActivity(this, {
      statistics: this.statistics,
      instances: options.instances,
      params: (id) => this.config?.nodes.find((n) => n.nodeId === id)?.params,
      seed: options.seed,
    });
  }

  /**
   * What `get config` hands out. Built when first asked for (a 255-node cluster's has some 26,000 connection
   * sections, and most simulators are never asked); a test or scenario may replace it with a new generation.
   */
  get config(): ClusterConfig | null {
    if (this.served === null && this.makeConfig !== null) this.served = this.makeConfig();
    return this.served;
  }

  set config(config: ClusterConfig | null) {
    this.served = config;
  }

  /** The simulator says how to build the configuration once its management servers listen (their ports are in it). */
  serveConfig(make: () => ClusterConfig): void {
    this.makeConfig = make;
    this.served = null;
  }

  /** A management server answered `get status`. */
  statusRead(): void {
    this.markWatched();
  }

  /** The simulator connects the model to its management servers. */
  attachMgmdControl(control: MgmdControl): void {
    this.mgmdControl = control;
  }

  /** Operation context for a command that arrived on management server `viewer` (0: programmatic). */
  operations(viewer = 0): OperationContext {
    return { cluster: this, prng: this.prng, mgmd: this.mgmdControl, viewer };
  }

  setLoad(profile: LoadProfile | LoadProfileName): void {
    this.statistics.setLoad(typeof profile === 'string' ? namedProfile(profile) : profile);
  }

  currentLoad(): LoadRates {
    return this.statistics.rates();
  }

  /** A crash of data node `id` (no graceful stop); the angel brings it back if `autoRestart`. */
  failNode(id: number, options: FailureOptions = {}): void {
    failDataNode(this, this.dataNode(id), options, this.prng);
  }

  /** A network split between two halves of the cluster, each with part of every node group (lifecycle/partition.ts). */
  splitNetwork(halves: readonly [DataNode[], DataNode[]], options: SplitOptions): Promise<void> {
    return splitNetwork(this, halves, options, this.prng);
  }

  /** DUMP 2399: the node reports each redo log part (RedoStatus), as of now. */
  reportRedoStatus(id: number): void {
    this.activity.advanceTo(this.clock.now());
    this.emit(...redoStatusEvents(id, this.activity.redoLog(id)));
  }

  restartNode(id: number, flags: RestartFlags = {}): Promise<OperationResult> {
    return restartNodes(this.operations(), [id], flags);
  }

  restartAll(flags: RestartFlags = {}): Promise<OperationResult> {
    return restartAll(this.operations(), flags);
  }

  stopNode(id: number, options: { abort?: boolean; force?: boolean } = {}): Promise<OperationResult> {
    return stopNodes(this.operations(), [id], options.abort ?? false, options.force ?? false);
  }

  stopAll(abort = false): Promise<OperationResult> {
    return stopAll(this.operations(), abort, true, false);
  }

  startNode(id: number): OperationResult {
    return startNode(this.operations(), id);
  }

  startAll(): OperationResult {
    return startAll(this.operations());
  }

  /** Starts every data node whose process is gone, together: an initial start or a system restart. */
  startCluster(initial = false): Promise<void> {
    return startCluster(this.operations(), initial);
  }

  enterSingleUser(apiId: number): Promise<OperationResult> {
    return enterSingleUser(this, apiId);
  }

  exitSingleUser(): OperationResult {
    return exitSingleUser(this);
  }

  setApiConnected(id: number, connected: boolean): void {
    const api = this.api.get(id);
    if (!api) throw new RangeError(`node ${id} is not an API node`);
    api.connected = connected;
  }
}
