import { eventText } from '../../../facts/events/event-text.js';
import { arbitrationLost, arbitrationWon, type ClusterEvent } from '../../../../../native-mgm/index.js';
import { isUp } from '../../node-status.js';
import type { AlertRoom } from './alert-room.js';
import type { PlannedWork } from '../planned-work.js';
import type { Room, StatusChange } from '../room.js';

/**
 * `node-down`: a data node that leaves the up state without a stop someone asked for (`PlannedWork`: this engine's
 * stops and restarts, a declared plan, a graceful stop by any client); only a node that drops without one has failed.
 */
export class NodeDownAlerts implements Room {
  constructor(
    private readonly alerts: AlertRoom,
    private readonly planned: PlannedWork,
    /** The incident a fall opened (the incident room takes each status change first). */
    private readonly incidentOf: (nodeId: number) => string | null = () => null,
  ) {}

  status({ nodeId: id, type, previous, status, at }: StatusChange): void {
    if (type !== 'NDB' || previous === null) return;
    const key = `node-down:${id}`;
    if (isUp(status)) this.alerts.resolve(key, at);
    else if (isUp(previous) && !this.planned.isPlanned(id)) this.alerts.raise(key, 'node-down', 'critical', at, id, downText(id, status), undefined, undefined, this.incidentOf(id) ?? undefined);
    else this.alerts.revise(key, downText(id, status));
  }
}

/** The alert's words follow the node: "(now STARTING)" once it is on its way back, not the status it fell to. */
function downText(id: number, status: string): string {
  return `Node ${id} left STARTED without a requested stop (now ${status})`;
}

/**
 * Alerts that are events rather than states, over as soon as they are raised: arbitration only for the ArbitResult
 * codes that mean it was needed (warning) or lost/failed (critical), not 43; checkpoint stalls. A won arbitration
 * while someone's stop or restart is under way is what that node's leaving brings (the president checks after every
 * node failure, graceful ones too: spec §8.3): progress, not a warning, so a rolling restart raises none per step.
 */
export class EventAlerts implements Room {
  constructor(
    private readonly alerts: AlertRoom,
    private readonly planned: PlannedWork,
  ) {}

  event(e: ClusterEvent): boolean {
    const src = e.sourceNodeId;
    switch (e.name) {
      case 'ArbitResult': {
        const code = e.fields.code ?? 0;
        const severity = arbitrationLost(code) ? 'critical' : arbitrationWon(code) && !this.planned.inFlight() ? 'warning' : null;
        if (severity) this.alerts.occurred('arbitration', severity, e.receivedAt, src, eventText(e));
        break;
      }
      case 'LCPStoppedInCalcKeepGci':
        this.alerts.occurred('checkpoint-stall', 'critical', e.receivedAt, src, `Node ${src}: local checkpoint stopped in calcKeepGci`);
        break;
      case 'UndoLogBlocked':
        this.alerts.occurred('checkpoint-stall', 'warning', e.receivedAt, src, `Node ${src}: undo log blocked`);
        break;
    }
    return false;
  }
}
