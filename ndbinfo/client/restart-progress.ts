import type { RestartRow } from './rows.js';

/**
 * Texts of a node that is not restarting now. The manual's and the source's wordings differ and the reference
 * lists only "Restart completed" for sure, so this is the uncertain part: any other non-empty text is taken as
 * a phase in progress (a wrong guess costs one query a second on a small table, never a missed restart).
 */
const IDLE_TEXT = /restart completed|node started|initial state|no data|not restarted|not defined/i;

/** Whether the node's restart is under way: the text column decides, the number only when the text is empty. */
export function restartInProgress(row: RestartRow): boolean {
  // The manual's words, or an enum name (RESTART_COMPLETED) as some tools write it: both read the same.
  if (row.status.trim() !== '') return !IDLE_TEXT.test(row.status.replace(/_/g, ' '));
  const name = row.statusName;
  return name !== null && !['NOT_DEFINED_IN_CLUSTER', 'NODE_NOT_RESTARTED_YET', 'RESTART_COMPLETED'].includes(name);
}
