import type { Alert } from '../../../contract/schemas/events.js';

/** The most severe alert still open (neither over nor acknowledged): what the cluster picker shows beside a name. */
export function worstOpenAlert(alerts: readonly Alert[]): Alert['severity'] | null {
  let worst: Alert['severity'] | null = null;
  for (const a of alerts) {
    if (a.acknowledged || a.resolvedAt !== null) continue;
    if (a.severity === 'critical') return 'critical';
    worst = 'warning';
  }
  return worst;
}
