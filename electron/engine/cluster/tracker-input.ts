import type { AlertKind } from '../../contract/schemas/events.js';
import type { ConnectionView } from '../../contract/schemas/snapshot.js';
import type { RollingPlanView } from '../../contract/schemas/rolling-restart.js';
import type { ClusterConfig, ClusterEvent, NodeState } from '../../../native-mgm/index.js';
import type { SelfLoad, SourceState } from '../../../ndbinfo/client/ndbinfo-source.js';
import type { Sample } from '../../../ndbinfo/client/sample.js';
import type { RunInput } from '../features/runs/run-book.js';

export type ConnectionInput = Omit<ConnectionView, 'mode' | 'trouble'>;

/**
 * A maintenance window opened, extended or stopped (`rooms/maintenance-room.ts` keeps them). `silenceCritical` and
 * `by` are absent only from recordings made before windows kept them: such a window silenced critical alerts too,
 * so its replay does as it did.
 */
export type MaintenanceInput =
  | { kind: 'maintenance'; t: number; op: 'start'; windowId: string; reason: string; silence: AlertKind[]; until: number | null; silenceCritical?: boolean; by?: string }
  | { kind: 'maintenance'; t: number; op: 'extend'; windowId: string; until: number; by?: string }
  | { kind: 'maintenance'; t: number; op: 'stop'; windowId: string; by?: string };

/**
 * Everything that changes a cluster's derived state, each stamped with the time it happened. The live monitor
 * produces these, the recorder writes them, and a replay feeds the same ones back, so the derivation code is
 * one and the same for both.
 */
export type TrackerInput =
  /** A `get status` reply; `requestedAt` is when it was asked for, to tell it from changes events reported since. */
  | { kind: 'status'; t: number; requestedAt: number; nodes: NodeState[] }
  | { kind: 'event'; t: number; event: ClusterEvent }
  /**
   * One `dump events 50` reply, whole: MemoryUsage gauges (not cluster log events) from every data node that
   * answered. A node with figures and none in the reply keeps them, marked stale.
   */
  | { kind: 'memory'; t: number; events: ClusterEvent[] }
  /** How we are connected; the mode is the tracker's own business. */
  | { kind: 'connection'; t: number; connection: ConnectionInput }
  /** An operator stop/restart through this engine: the node leaving STARTED is expected, not an alert. */
  | { kind: 'requested'; t: number; nodeId: number; requested: boolean }
  /**
   * Restarts a plan is about to send (a rolling-restart conductor hosted by the engine): planned work, shown as
   * progress, not alarms. `planned: false` withdraws them (the restart was refused); otherwise each ends when its
   * node is up again. `by` names the plan for the record.
   */
  | { kind: 'planned'; t: number; nodeIds: number[]; planned: boolean; by: string }
  | { kind: 'ack'; t: number; alertId: string }
  /** The rolling restart the engine conducts, whole, each time it changed (its host publishes it). */
  | { kind: 'rolling-plan'; t: number; view: RollingPlanView }
  /** The configuration (`get config_v2`), when first read and whenever it changed. */
  | { kind: 'config'; t: number; config: ClusterConfig }
  /** One ndbinfo reading of the SQL source: its rows as the source gave them (counter rates included). */
  | { kind: 'ndbinfo'; t: number; sample: Sample }
  /** The SQL source's link changed (connecting, up, lost, closed). */
  | { kind: 'ndbinfo-link'; t: number; state: SourceState }
  /** What watching costs the SQL node, every few seconds while the source runs. */
  | { kind: 'ndbinfo-load'; t: number; load: SelfLoad }
  /** Once a second: a history sample. */
  | { kind: 'tick'; t: number }
  /** A benchmark run's start, phase or stop, marked from the UI, the CLI or a script. */
  | RunInput
  /** A maintenance window opened or stopped (from the UI, the CLI or HTTP); one runs out by the ticks. */
  | MaintenanceInput;

