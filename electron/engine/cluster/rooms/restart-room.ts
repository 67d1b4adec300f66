import type { Timeline } from '../../../contract/schemas/history.js';
import type { RestartProgress } from '../../../contract/schemas/node.js';
import type { ClusterEvent } from '../../../../native-mgm/index.js';
import { RestartTracker } from '../restart-tracker.js';
import { StatusTimeline } from '../status-timeline.js';
import type { Room, StatusChange } from './room.js';

/** Where each node has been: its status segments over the history horizon, and each data node's restart progress. */
export class RestartRoom implements Room {
  private readonly restarts = new RestartTracker();
  private readonly timeline: StatusTimeline;

  constructor(horizonMs: number) {
    this.timeline = new StatusTimeline(horizonMs);
  }

  status({ nodeId, previous, status, phase, at }: StatusChange): void {
    this.timeline.note(nodeId, status, phase, at);
    this.restarts.onStatus(nodeId, status, phase, at, previous === null);
  }

  event(e: ClusterEvent): boolean {
    if (e.name === 'StartPhaseCompleted') this.restarts.setStartType(e.sourceNodeId, e.fields.starttype ?? 0);
    return false;
  }

  forget(nodeId: number): void {
    this.timeline.forget(nodeId);
  }

  setHorizon(ms: number): void {
    this.timeline.setHorizon(ms);
  }

  timelineView(fromMs: number | undefined, now: number): Timeline {
    return this.timeline.view(fromMs, now);
  }

  restart(nodeId: number, now: number): RestartProgress | null {
    return this.restarts.view(nodeId, now);
  }

  underWay(): ReturnType<RestartTracker['underWay']> {
    return this.restarts.underWay();
  }
}
