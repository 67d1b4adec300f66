import type { NodeStatus, NodeView } from '../../contract.js';
import { START_STEPS, phaseStep } from '../restarts/restart-progress.js';

/** Words that fit a 90-pixel tile; the full protocol word is in the tile's title and data-status. */
const SHORT: Record<NodeStatus, string> = {
  STARTED: 'STARTED',
  CONNECTED: 'CONNECTED',
  STARTING: 'STARTING',
  RESTARTING: 'RESTARTING',
  RESUME: 'RESUME',
  SHUTTING_DOWN: 'STOPPING',
  'SINGLE USER MODE': 'SINGLE USER',
  NOT_STARTED: 'NOT STARTED',
  NO_CONTACT: 'NO CONTACT',
  UNKNOWN: 'UNKNOWN',
};

export function tileStatus(status: NodeStatus): string {
  return SHORT[status];
}

/**
 * A tile's memory number is not current when the node is out of contact (its last figures) or when it was missing
 * from the last memory report while connected: then it is greyed, never shown as if just read.
 */
export function memoryOutdated(node: Pick<NodeView, 'lastSeenAt' | 'memory'>): boolean {
  return node.lastSeenAt != null || node.memory.data?.stale === true;
}

/** "p4/9" beside a STARTING tile's id: the step, not the phase number, so 101 reads as the last of nine. */
export function tilePhase(node: Pick<NodeView, 'status' | 'startPhase'>): string | null {
  return node.status === 'STARTING' ? `p${phaseStep(node.startPhase)}/${START_STEPS}` : null;
}
