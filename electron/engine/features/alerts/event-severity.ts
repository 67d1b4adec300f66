import type { Alert, EventView } from '../../../contract/schemas/events.js';
import { SEVERITIES } from '../../../contract/page-safe/vocabulary.js';

/**
 * Marks a logged event as the one that raised `alert`: at least the alert's severity (a MemoryUsage record is INFO
 * to the node, but a critical alert to the operator; an ALERT-level record stays ALERT, the scale's top), and the
 * alert's id, so the log and the alert strip never disagree about how bad it was.
 */
export function markRaisingEvent(view: EventView, alert: Alert): void {
  const raised = alert.severity === 'critical' ? 'CRITICAL' : 'WARNING';
  if (view.severity === null || SEVERITIES.indexOf(view.severity) < SEVERITIES.indexOf(raised)) view.severity = raised;
  view.alertId = alert.id;
}
