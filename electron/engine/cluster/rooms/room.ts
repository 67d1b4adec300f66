import type { NodeStatus, NodeType } from '../../../contract/schemas/node.js';
import type { ClusterEvent } from '../../../../native-mgm/index.js';
import type { TrackerInput } from '../tracker-input.js';

/** A node's status or start phase as the node records just set it. */
export interface StatusChange {
  nodeId: number;
  type: NodeType;
  /** null: the node was just seen for the first time (its first poll line). */
  previous: NodeStatus | null;
  status: NodeStatus;
  phase: number;
  at: number;
}

/**
 * One kind of derived state of a cluster (node records, alerts of one subject, rates and memory, restarts, runs …).
 * The tracker hands every room the same inputs in the same order; a room takes what it derives from and ignores
 * the rest, so a new kind of state is a new room and leaves the others as they are. Rooms read no clock: every
 * input carries its time, so a replay derives what live derived.
 */
export interface Room {
  /** Every input but cluster events, which come through `event`. */
  input?(input: Exclude<TrackerInput, { kind: 'event' }>): void;
  /**
   * A cluster event. True: the room has touched every node whose view the event changed (statistics and memory
   * reports, backups: hundreds a second under load), so the tracker need not rebuild every node's view for it.
   */
  event?(event: ClusterEvent): boolean;
  /** A node's status or start phase changed, whether a poll or an event told it (called inside `input`/`event`). */
  status?(change: StatusChange): void;
  /** A node is no longer in the cluster's `get status` reply. */
  forget?(nodeId: number): void;
  /** After every room took the input: for state that depends on several inputs' sum (node group health). */
  settle?(at: number): void;
}
