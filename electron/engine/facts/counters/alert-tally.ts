import type { AlertCount } from '../../../contract/schemas/counters.js';
import { AlertKindSchema, AlertSchema, type Alert } from '../../../contract/schemas/events.js';

const SEVERITIES = AlertSchema.shape.severity.options;

/**
 * How many alerts of each kind and severity were raised. Alerts that are events rather than states (arbitration,
 * checkpoint stalls) are over the moment they are raised, so only a count lets a scraper see that they happened.
 */
export class AlertTally {
  private readonly raised = new Map<string, number>();

  count(alert: Pick<Alert, 'kind' | 'severity'>): void {
    const key = `${alert.kind}/${alert.severity}`;
    this.raised.set(key, (this.raised.get(key) ?? 0) + 1);
  }

  /** Every kind and severity, zeros included: a counter that first appears at 1 shows no increase in Prometheus. */
  view(): AlertCount[] {
    return AlertKindSchema.options.flatMap((kind) => SEVERITIES.map((severity) => ({ kind, severity, raised: this.raised.get(`${kind}/${severity}`) ?? 0 })));
  }
}
