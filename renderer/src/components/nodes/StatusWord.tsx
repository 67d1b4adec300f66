import type { NodeStatus } from '../../contract.js';
import { STATUS_TONE } from '../../view-model/nodes/status.js';

/** The protocol's word, spaced for reading, in the tone's colour: the word carries the meaning, the colour helps. */
export function StatusWord({ status, big = false }: { status: NodeStatus; big?: boolean }) {
  return <span className={`status-word tone-${STATUS_TONE[status]}${big ? ' big' : ''}`}>{status.replace(/_/g, ' ')}</span>;
}
