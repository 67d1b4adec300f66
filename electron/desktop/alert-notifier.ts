import type { PushMessage } from '../contract/channels.js';
import type { Alert } from '../contract/events.js';

export interface AlertNotification {
  title: string;
  body: string;
  urgency: 'normal' | 'critical';
}

/**
 * Turns pushed `alert` messages into desktop notifications: once per alert id, never for ones already
 * acknowledged or resolved, and not at all while the user has notifications off.
 */
export function createAlertNotifier(show: (n: AlertNotification) => void, enabled: () => boolean): (message: PushMessage) => void {
  const seen = new Set<string>();
  const describe = (clusterName: string, alert: Alert): AlertNotification => ({
    title: `${alert.severity === 'critical' ? 'Critical' : 'Warning'}: ${clusterName}${alert.nodeId === null ? '' : `, node ${alert.nodeId}`}`,
    body: alert.message,
    urgency: alert.severity === 'critical' ? 'critical' : 'normal',
  });
  const names = new Map<string, string>();
  return (message) => {
    if (message.type === 'clusters') for (const c of message.clusters) names.set(c.clusterId, c.name);
    if (message.type !== 'alert') return;
    const { alert, clusterId } = message;
    if (seen.has(alert.id) || alert.acknowledged || alert.resolvedAt !== null) return;
    seen.add(alert.id);
    if (enabled()) show(describe(names.get(clusterId) ?? clusterId, alert));
  };
}
