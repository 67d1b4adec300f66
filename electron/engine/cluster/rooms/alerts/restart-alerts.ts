import { overran, restartCompleted } from '../../../../contract/page-safe/restart-phases.js';
import { formatDuration } from '../../../../contract/page-safe/format-duration.js';
import type { NodeStatus } from '../../../../contract/schemas/node.js';
import { isUp } from '../../node-status.js';
import { ndbinfoRestartFact, restartState } from '../../restart-state.js';
import type { AlertRoom } from './alert-room.js';
import type { NdbinfoRoom } from '../ndbinfo-room.js';
import type { RestartRoom } from '../restart-room.js';
import type { Room, StatusChange } from '../room.js';

/**
 * The two ways a restart goes wrong, planned or not, which planned work must not hide: `restart-slow`, a data node
 * starting for much longer than its starts usually take (the same "much longer" as a restart phase's overrun), and
 * `restart-failed`, a node that began starting and fell back down before it was STARTED. Both end once the node is
 * up. The usual length is the mean of the starts this engine timed; before it timed one, the node's own previous
 * restart as restart_info counted it, a whole restart and so longer than the start alone: a later alert, never a
 * false one.
 */
export class RestartAlerts implements Room {
  /** The start phase each starting node was last seen in: where a failed start got to. */
  private readonly phases = new Map<number, number>();
  /** How each failed start fell, while its alert is active: the words then follow the node ("now STARTING"). */
  private readonly falls = new Map<number, string>();
  private nextCheckAt = 0;

  constructor(
    private readonly alerts: AlertRoom,
    private readonly restarts: RestartRoom,
    private readonly ndbinfo: NdbinfoRoom,
  ) {}

  status({ nodeId, type, previous, status, phase, at }: StatusChange): void {
    if (type !== 'NDB') return;
    if (status === 'STARTING') {
      this.phases.set(nodeId, phase);
      this.reviseFall(nodeId, `STARTING (${this.where(nodeId, phase, at)})`);
      return;
    }
    this.alerts.resolve(slowKey(nodeId), at);
    if (isUp(status)) {
      this.alerts.resolve(failedKey(nodeId), at);
      this.falls.delete(nodeId);
    } else if (previous === 'STARTING' && FELL.has(status)) {
      const reached = this.phases.get(nodeId);
      // Said as the node's restart state was when it fell: restart_info's last row has not caught up with the fall yet.
      const fall = `Node ${nodeId}'s start failed: it fell from STARTING${reached !== undefined ? ` (${this.where(nodeId, reached, at)})` : ''} to ${status}`;
      this.falls.set(nodeId, fall);
      // Failing again before it was up: the alert it raised the first time stays, and says the latest fall.
      if (this.alerts.isActive(failedKey(nodeId))) this.alerts.revise(failedKey(nodeId), fall);
      else this.alerts.raise(failedKey(nodeId), 'restart-failed', 'critical', at, nodeId, fall);
    } else {
      this.reviseFall(nodeId, status);
    }
    this.phases.delete(nodeId);
  }

  /** The node's restart state as the node view says it, with the start phase it reached: "copying the dictionary, start phase 4 done". */
  private where(nodeId: number, startPhase: number, at: number): string {
    const row = ndbinfoRestartFact(this.ndbinfo.nodeView(nodeId));
    return `${restartState({ status: 'STARTING', startPhase, since: at, current: true }, row).words}, start phase ${startPhase} done`;
  }

  forget(nodeId: number): void {
    this.phases.delete(nodeId);
    this.falls.delete(nodeId);
  }

  /** A failed start's words once the node moved on ("now STARTING (start phase 2)"), until it is up. */
  private reviseFall(nodeId: number, now: string): void {
    const fall = this.falls.get(nodeId);
    if (fall !== undefined) this.alerts.revise(failedKey(nodeId), `${fall} (now ${now})`);
  }

  settle(at: number): void {
    // Settled after every input (hundreds a second under load, 72 nodes starting at once in a 144-node rolling
    // restart): a start's length is judged once a second of the inputs' time, so a replay judges as live did.
    if (at < this.nextCheckAt) return;
    this.nextCheckAt = at + CHECK_EVERY_MS;
    for (const start of this.restarts.underWay()) {
      const usualMs = start.usualMs ?? this.previousRestartMs(start.nodeId);
      if (usualMs === null) continue;
      const elapsedMs = at - start.startedAt;
      if (!overran(elapsedMs / 1000, usualMs / 1000)) continue;
      const basis = start.usualMs !== null ? 'its starts usually take' : 'its previous restart took';
      this.alerts.raise(slowKey(start.nodeId), 'restart-slow', 'warning', at, start.nodeId, `Node ${start.nodeId} still starting after ${formatDuration(elapsedMs)}: much longer than the ${formatDuration(usualMs)} ${basis}`);
    }
  }

  private previousRestartMs(nodeId: number): number | null {
    const previous = this.ndbinfo.nodeView(nodeId)?.previousRestart;
    return previous && restartCompleted(previous) && previous.totalSecs > 0 ? previous.totalSecs * 1000 : null;
  }
}

const CHECK_EVERY_MS = 1000;
/** Where a start that failed lands; a stop asked for while it started goes SHUTTING_DOWN first, which is no fall. */
const FELL = new Set<NodeStatus>(['NO_CONTACT', 'NOT_STARTED', 'UNKNOWN']);
const slowKey = (nodeId: number): string => `restart-slow:${nodeId}`;
const failedKey = (nodeId: number): string => `restart-failed:${nodeId}`;
