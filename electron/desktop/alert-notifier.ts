import { ALERT_KIND_LABEL, listNodeIds } from '../contract/page-safe/alert-kinds.js';
import type { PushMessage } from '../contract/schemas/channels.js';
import type { Alert } from '../contract/schemas/events.js';
import { visibleText } from '../contract/page-safe/outside-text.js';

export interface AlertNotification {
  title: string;
  body: string;
  urgency: 'normal' | 'critical';
}

export interface NotifierClock {
  later(ms: number, fn: () => void): void;
}

/** One notification per alert kind and cluster per minute; what comes meanwhile is told in one more at its end. */
export const FOLD_MS = 60_000;

const REAL_CLOCK: NotifierClock = { later: (ms, fn) => void setTimeout(fn, ms).unref() };

const severityWord = (alerts: readonly Alert[]): string => (alerts.some((a) => a.severity === 'critical') ? 'Critical' : 'Warning');
const urgency = (alerts: readonly Alert[]): AlertNotification['urgency'] => (alerts.some((a) => a.severity === 'critical') ? 'critical' : 'normal');

/**
 * Turns pushed `alert` messages into desktop notifications: once per alert id, never for ones already
 * acknowledged or resolved, and not at all while the user has notifications off. Folded per kind: the first
 * alert of a kind shows at once, the rest of that minute (141 nodes crossing 90 % memory) as one notification.
 */
export function createAlertNotifier(showRaw: (n: AlertNotification) => void, enabled: () => boolean, clock: NotifierClock = REAL_CLOCK): (message: PushMessage) => void {
  // The OS shows a notification's text as it is: cluster names and alert texts from outside go under the one rule.
  const show = (n: AlertNotification): void => showRaw({ ...n, title: visibleText(n.title), body: visibleText(n.body) });
  const seen = new Set<string>();
  const names = new Map<string, string>();
  /** Per cluster and kind while a minute is running: the alerts held for its end. */
  const windows = new Map<string, { clusterId: string; held: Alert[] }>();

  const single = (clusterName: string, alert: Alert): AlertNotification => ({
    title: `${severityWord([alert])}: ${clusterName}${alert.nodeId === null ? '' : `, node ${alert.nodeId}`}`,
    body: alert.message,
    urgency: urgency([alert]),
  });
  const folded = (clusterName: string, held: readonly Alert[]): AlertNotification => {
    const nodes = held.flatMap((a) => (a.nodeId === null ? [] : [a.nodeId]));
    const kind = held[0]?.kind ?? 'node-down';
    return {
      title: `${severityWord(held)}: ${clusterName}, ${held.length} more: ${ALERT_KIND_LABEL[kind]}`,
      body: nodes.length > 0 ? `nodes ${listNodeIds(nodes)}` : (held[held.length - 1]?.message ?? ''),
      urgency: urgency(held),
    };
  };
  const flush = (key: string): void => {
    const window = windows.get(key);
    if (!window || window.held.length === 0) {
      windows.delete(key);
      return;
    }
    const held = window.held;
    window.held = [];
    if (enabled()) show(folded(names.get(window.clusterId) ?? window.clusterId, held));
    clock.later(FOLD_MS, () => flush(key));
  };

  return (message) => {
    if (message.type === 'clusters') for (const c of message.clusters) names.set(c.clusterId, c.name);
    if (message.type !== 'alert') return;
    const { alert, clusterId } = message;
    if (seen.has(alert.id) || alert.acknowledged || alert.resolvedAt !== null) return;
    seen.add(alert.id);
    const key = `${clusterId}\u0000${alert.kind}`;
    const window = windows.get(key);
    if (window) {
      window.held.push(alert);
      return;
    }
    windows.set(key, { clusterId, held: [] });
    clock.later(FOLD_MS, () => flush(key));
    if (enabled()) show(single(names.get(clusterId) ?? clusterId, alert));
  };
}
