import { byUrgency, type Alert } from '../../contract.js';

/** Active alerts shown in full before the rest fold into "+N more active". */
export const ACTIVE_ROWS = 3;

export interface AlertSummary {
  /** Unresolved and unacknowledged, in the contract's one order (`byUrgency`). */
  active: Alert[];
  /** Over but not acknowledged yet, newest first; the strip folds them into one line. */
  resolved: Alert[];
  /** When the oldest of `resolved` was raised, for "12 resolved alerts since 05:41". */
  resolvedSince: number | null;
}

/**
 * Splits what the strip must keep pinned: a rolling restart of 144 nodes raises about 72 "degraded" warnings that
 * resolve on their own, and those must not push the dashboard off the screen while one real failure is ongoing.
 */
export function summarizeAlerts(alerts: readonly Alert[]): AlertSummary {
  const open = alerts.filter((a) => !a.acknowledged);
  const active = open.filter((a) => a.resolvedAt === null).sort(byUrgency);
  const resolved = open.filter((a) => a.resolvedAt !== null).sort((a, b) => b.at - a.at);
  const resolvedSince = resolved.length === 0 ? null : Math.min(...resolved.map((a) => a.at));
  return { active, resolved, resolvedSince };
}
